// The weekly league: one per game, standings for the current week and every past week, my place
// (GET /api/league, /api/league/{game}?week=, /api/league/{game}/weeks; platform.md, "The weekly league").
import { get } from '../api.js';
import { GAMES } from '../games/index.js';
import { html, useState } from '../lib.js';
import { go } from '../router.js';
import { coins, ErrorNote, Loading, number, ordinal, Page, ProfileLink, RatingTag, useLoad, useNow } from '../ui.js';

const PAGE_SIZE = 50;

function dayText(iso) {
  const date = new Date(iso);
  return date.toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
}

/** A week from its Monday (ISO date) to its Sunday, in UTC as the league counts it. */
function weekText(monday) {
  const start = new Date(`${monday}T00:00:00Z`);
  const end = new Date(start.getTime() + 6 * 86400000);
  return `${dayText(start.toISOString())} – ${dayText(end.toISOString())}`;
}

function timeLeft(endsAt, now) {
  const seconds = Math.max(0, new Date(endsAt).getTime() / 1000 - now);
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor((seconds % 86400) / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (days) return `${days} day${days === 1 ? '' : 's'} ${hours} h`;
  if (hours) return `${hours} h ${minutes} min`;
  return `${minutes} min`;
}

function Standings({ game, week, me }) {
  const first = useLoad(() => get(`/api/league/${game}?limit=${PAGE_SIZE}${week ? `&week=${week}` : ''}`), [game, week]);
  const [more, setMore] = useState({ rows: [], busy: false, error: null });
  const now = useNow(30000);
  const data = first.data;
  if (!data) {
    return html`${first.loading && html`<${Loading} what="Loading the standings" />`}<${ErrorNote} error=${first.error} />`;
  }
  const rows = [...data.standings, ...more.rows];
  const paid = Object.fromEntries((data.paid || []).map((p) => [p.username, p.coins]));
  const loadMore = async () => {
    setMore((m) => ({ ...m, busy: true, error: null }));
    try {
      const next = await get(`/api/league/${game}?limit=${PAGE_SIZE}&offset=${rows.length}&week=${data.week}`);
      setMore((m) => ({ rows: [...m.rows, ...next.standings], busy: false, error: null }));
    } catch (error) {
      setMore((m) => ({ ...m, busy: false, error }));
    }
  };
  return html`
    <section class="card" aria-labelledby="week-title">
      <h2 id="week-title">${data.title}: ${data.current ? 'this week' : 'week of'} ${weekText(data.week)}</h2>
      <p>${data.current
        ? html`The week ends in <strong>${timeLeft(data.ends_at, now)}</strong> (Monday 00:00 UTC).`
        : data.closed ? 'This week is closed and its prizes are paid.' : 'This week is over; its prizes are being paid.'}
        ${' '}Prizes for the top three: ${data.prizes.map((p, i) => `${ordinal(i + 1)} ${coins(p)}`).join(', ')}.</p>
      <div class="my-place" aria-label="Your place">
        ${data.me
          ? html`<div class="stat"><span class="stat-label">Your place</span><span class="stat-value">${ordinal(data.me.place)}</span></div>
              <div class="stat"><span class="stat-label">Your points</span><span class="stat-value">${number(data.me.points)}</span></div>
              <div class="stat"><span class="stat-label">Games</span><span class="stat-value">${number(data.me.games)}</span></div>`
          : html`<p class="muted">You have no points in ${data.current ? "this week's" : "that week's"} ${data.title} league.${data.current
              ? html` <a href="#/lobby">Play an online or staked game</a> to get some.` : ''}</p>`}
      </div>
    </section>
    <section class="card" aria-labelledby="standings-title">
      <h2 id="standings-title">Standings <span class="count">${number(data.total)}</span></h2>
      ${rows.length === 0
        ? html`<p class="muted">Nobody has league points for this week yet.</p>`
        : html`<table class="league-table">
            <thead><tr><th scope="col">Place</th><th scope="col">Player</th><th scope="col">Rating</th>
              <th scope="col" class="num">Points</th>
              <th scope="col" class="num">Games</th>${data.closed && html`<th scope="col" class="num">Prize</th>`}</tr></thead>
            <tbody>${rows.map((row) => html`<tr key=${row.username} class=${row.username === me.username ? 'mine' : ''}>
              <td><span class=${`medal medal-${{ 1: 'gold', 2: 'silver', 3: 'bronze' }[row.place] || 'none'}`}>${ordinal(row.place)}</span></td>
              <td><${ProfileLink} username=${row.username} />${row.username === me.username ? html` <span class="tag tag-you">you</span>` : ''}</td>
              <td><${RatingTag} rating=${row.rating} /></td>
              <td class="num"><strong>${number(row.points)}</strong></td>
              <td class="num">${number(row.games)}</td>
              ${data.closed && html`<td class="num">${paid[row.username] ? coins(paid[row.username]) : ''}</td>`}
            </tr>`)}</tbody>
          </table>`}
      ${rows.length < data.total && html`<button type="button" class="btn" onClick=${loadMore} disabled=${more.busy}>
        ${more.busy ? 'Loading…' : 'Show more'}</button>`}
      <${ErrorNote} error=${more.error} />
    </section>`;
}

export function LeagueScreen({ params, me }) {
  const league = useLoad(() => get('/api/league'));
  const info = league.data;
  const games = (info?.games || []).filter((g) => GAMES[g.name]);
  const game = games.some((g) => g.name === params.game) ? params.game : games[0]?.name;
  const weeks = useLoad(() => (game ? get(`/api/league/${game}/weeks`) : Promise.resolve({ weeks: [] })), [game]);
  const week = params.week && info && params.week !== info.week ? params.week : '';
  const past = (weeks.data?.weeks || []).filter((w) => !info || w.week !== info.week);
  const show = (next) => go(`/league?game=${next.game}${next.week ? `&week=${next.week}` : ''}`);
  return html`<${Page} title="Weekly league"
      subtitle="Online and staked games earn league points; the top three of each game's league win coins every week.">
    ${league.loading && !info && html`<${Loading} />`}
    <${ErrorNote} error=${league.error} />
    ${info && html`<section class="card league-rules">
      <p><strong>Points per game:</strong> ${info.points.map((p, i) => `${ordinal(i + 1)} ${p}`).join(', ')}; half
        (rounded down) when a simulated player sat at the table. Ties share the points of the places they cover.
        A week runs from Monday 00:00 to Monday 00:00 UTC.</p>
    </section>`}
    ${game && html`<div class="league-tabs" role="group" aria-label="Game">
      ${games.map((g) => html`<button type="button" key=${g.name} class="btn btn-small" aria-pressed=${g.name === game ? 'true' : 'false'}
        onClick=${() => show({ game: g.name })}>${g.title}</button>`)}
    </div>`}
    ${game && html`<div class="league-controls">
      <div class="field">
        <label for="league-week">Week</label>
        <select id="league-week" value=${week} onChange=${(e) => show({ game, week: e.currentTarget.value })}>
          <option value="">This week (${info ? weekText(info.week) : ''})</option>
          ${past.map((w) => html`<option key=${w.week} value=${w.week}>${weekText(w.week)} · ${w.players} player${w.players === 1 ? '' : 's'}${w.closed ? ' · closed' : ''}</option>`)}
        </select>
        <p class="field-note">${past.length ? `${past.length} past week${past.length === 1 ? '' : 's'} with standings.` : 'No past weeks yet for this game.'}</p>
      </div>
    </div>`}
    <${ErrorNote} error=${weeks.error} />
    ${game && html`<${Standings} key=${`${game}-${week}`} game=${game} week=${week} me=${me} />`}
  <//>`;
}
