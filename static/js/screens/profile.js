// A player's profile (GET /api/users/{username}; docs/ratings.md): level, each game's rating with its uncertainty
// and record in rated (online and staked) games, and their recent rated games with each rating change. Reached from
// a friend's name, a league row, a results row, or the address /u/NAME.
import { get } from '../api.js';
import { html } from '../lib.js';
import { ErrorNote, Loading, MODE_NAMES, number, ordinal, Page, ratingTitle, signed, useLoad, when } from '../ui.js';

function RatingCell({ game }) {
  if (!game.games) return html`<span class="muted" title=${ratingTitle(game)}>not rated yet</span>`;
  return html`<span title=${ratingTitle(game)}><strong>${game.rating}</strong> ± ${game.deviation}
    ${game.provisional && html` <span class="tag">provisional</span>`}</span>`;
}

function Change({ rating }) {
  if (!rating) return html`<span class="muted">not rated</span>`;
  const cls = rating.change > 0 ? 'gain' : rating.change < 0 ? 'loss' : '';
  return html`<span class="rating-change"><span class=${cls}>${signed(rating.change)}</span>
    <small class="muted"> → ${rating.rating}</small></span>`;
}

export function ProfileScreen({ params }) {
  const profile = useLoad(() => get(`/api/users/${encodeURIComponent(params.username)}`), [params.username]);
  const data = profile.data;
  if (!data) {
    return html`<${Page} title=${params.username}>
      ${profile.loading && html`<${Loading} what="Loading the profile" />`}
      <${ErrorNote} error=${profile.error} />
      <p><a href="#/friends">Back to your friends</a></p>
    <//>`;
  }
  const played = data.games.filter((game) => game.played > 0 || game.games > 0);
  return html`<${Page} title=${data.username} subtitle=${`Level ${data.level} · playing since ${when(data.member_since)}`}>
    <section class="card" aria-labelledby="ratings-title">
      <h2 id="ratings-title">Ratings</h2>
      <p class="muted">One rating per game, from online and staked games: 1000 at first, moved by the placings of
        each rated game; "±" says how sure it is yet.</p>
      <table>
        <thead><tr><th scope="col">Game</th><th scope="col">Rating</th><th scope="col" class="num">Played</th>
          <th scope="col" class="num">Won</th><th scope="col" class="num">Left</th></tr></thead>
        <tbody>${data.games.map((game) => html`<tr key=${game.game}>
          <th scope="row">${game.title}</th>
          <td><${RatingCell} game=${game} /></td>
          <td class="num">${number(game.played)}</td><td class="num">${number(game.won)}</td>
          <td class="num">${number(game.left)}</td>
        </tr>`)}</tbody>
      </table>
      ${!played.length && html`<p class="muted">${data.me ? 'You have' : `${data.username} has`} not played an online or
        staked game yet.</p>`}
    </section>
    <section class="card" aria-labelledby="recent-title">
      <h2 id="recent-title">Recent rated games</h2>
      ${data.recent.length === 0
        ? html`<p class="muted">None yet.</p>`
        : html`<ul class="history">${data.recent.map((g) => html`<li key=${g.id} class="history-item">
            <div class="history-main">
              <strong>${g.title}</strong> <span class="muted">${MODE_NAMES[g.mode] || g.mode} · ${when(g.finished_at)}</span>
              <p class="muted history-players">${g.players.join(', ')}</p>
            </div>
            <div class="history-result">
              <span class="place-big">${ordinal(g.placing)}<small> of ${g.seats}</small></span>
              ${g.left && html`<span class="tag tag-away">left</span>`}
              <span>Rating <${Change} rating=${g.rating} /></span>
            </div>
          </li>`)}</ul>`}
    </section>
  <//>`;
}
