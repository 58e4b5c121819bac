// The results of one finished game: placings, scores, coins and XP earned (GET /api/games/{id}).
import { get } from '../api.js';
import { gameModule } from '../games/index.js';
import { html, useEffect } from '../lib.js';
import { RematchBox } from '../rematch.js';
import { refreshMe } from '../session.js';
import { botTag, ErrorNote, Loading, MODE_NAMES, ordinal, Page, ProfileLink, ratingTitle, signed, useLoad, when,
  XpBar } from '../ui.js';

const MEDALS = { 1: 'gold', 2: 'silver', 3: 'bronze' };
const LEAGUE_MODES = ['online', 'staked'];

/** Where "New game" leads: the same mode's settings (or queue) for the same game. */
function againLink(game) {
  if (LEAGUE_MODES.includes(game.mode)) return `#/play/${game.game}/${game.mode}`;
  return `#/new/${game.game}/${game.mode === 'bots' ? 'bots' : 'friends'}`;
}

/** A seat's net coins: what its balance changed by (the ledger's entries for this game). */
function net(reward) {
  return reward.net ?? (reward.coins || 0) + (reward.pot || 0);
}

/** What made the net coins: stake, prize (with its booster/VIP multiplier), pot share. */
function netParts(reward) {
  const parts = [];
  if (reward.stake) parts.push(`stake ${signed(-reward.stake)}`);
  if (reward.prize) {
    parts.push(reward.multiplier && reward.multiplier !== 1
      ? `prize ${signed(reward.prize)} × ${reward.multiplier}` : `prize ${signed(reward.coins)}`);
  }
  if (reward.stake || reward.pot) parts.push(`pot share ${signed(reward.pot || 0)}`);
  return parts.join(' · ');
}

/** Why a rated game did not move a seat's rating (docs/ratings.md). */
const UNRATED = {
  bot_decided: 'Ratings did not move: covering bots played most of this game.',
  left: 'Your rating did not move: you left, or a bot played most of your turns.',
  one_person: 'Ratings move in games between people; the others at this table were simulated players.',
};

/** A seat's rating change: "+12 → 1012" (its title the new rating's uncertainty). */
function RatingChange({ rating }) {
  if (!rating || rating.change === undefined) return html`<span class="muted">—</span>`;
  const cls = rating.change > 0 ? 'gain' : rating.change < 0 ? 'loss' : '';
  return html`<span class="rating-change" title=${ratingTitle(rating)}><span class=${cls}>${signed(rating.change)}</span>
    <small class="muted"> → ${rating.rating}${rating.provisional ? '?' : ''}</small></span>`;
}

/** The score column's heading: a module's `scoreTitle` is a string, or a function of the seat count. */
function scoreTitle(module, seats) {
  const title = module.scoreTitle;
  return (typeof title === 'function' ? title(seats) : title) || 'Score';
}

export function ResultsScreen({ params, me }) {
  const record = useLoad(() => get(`/api/games/${params.id}`), [params.id]);
  useEffect(() => {
    refreshMe();
  }, []);
  const game = record.data;
  if (!game) {
    return html`<${Page} title="Results">
      ${record.loading && html`<${Loading} what="Loading the results" />`}
      <${ErrorNote} error=${record.error} />
      <p><a href="#/lobby">Back to the lobby</a></p>
    <//>`;
  }
  const module = gameModule(game.game);
  const mySeat = game.seats.findIndex((seat) => seat.kind === 'human' && seat.name === me.username);
  const rows = game.seats
    .map((seat, index) => ({ seat, index, place: game.placings[index], reward: game.rewards[String(index)] || {} }))
    .sort((a, b) => a.place - b.place || a.index - b.index);
  const mine = mySeat >= 0 ? rows.find((r) => r.index === mySeat) : null;
  const earnedCoins = mine ? net(mine.reward) : 0;
  const earnedXp = mine ? mine.reward.xp || 0 : 0;
  // A rated game (docs/ratings.md) shows each person's rating change beside their coins and XP.
  const rated = rows.some((row) => row.reward.rating);
  // platform.md, "Leaving": a seat that counts as left took the covering bot's place, not the person's, so the
  // headline never congratulates them for it (the table's game-over box says the same).
  let headline = 'Results';
  if (mine?.reward.left) headline = 'This game counts as left';
  else if (mine) headline = mine.place === 1 ? 'You won!' : `You finished ${ordinal(mine.place)}`;
  return html`<${Page} title=${headline}
      subtitle=${`${game.title} · ${MODE_NAMES[game.mode] || game.mode} · ${game.seats.length} players · ${when(game.finished_at)}`}>
    ${mine && html`<section class="card earned" aria-label="What you earned">
      <div class="stat"><span class="stat-label">Coins</span><span class="stat-value">${signed(earnedCoins)}</span></div>
      <div class="stat"><span class="stat-label">XP</span><span class="stat-value">${signed(earnedXp)}</span></div>
      ${LEAGUE_MODES.includes(game.mode) && html`<div class="stat"><span class="stat-label">League points</span>
        <span class="stat-value">${signed(mine.reward.league_points || 0)}</span></div>`}
      ${mine.reward.rating?.change !== undefined && html`<div class="stat stat-rating"><span class="stat-label">Rating</span>
        <span class="stat-value"><${RatingChange} rating=${mine.reward.rating} /></span></div>`}
      ${mine.reward.rating?.unrated && html`<p class="muted rating-unrated">${UNRATED[mine.reward.rating.unrated]
        || 'Ratings did not move in this game.'}</p>`}
      ${mine.reward.league_halved && html`<p class="muted league-halved">League points halved (rounded down): a
        simulated player sat at this table, or a bot played most of someone's turns. Games played through by real
        people count in full.</p>`}
      ${netParts(mine.reward) && html`<p class="muted coins-made">Your coins: ${netParts(mine.reward)} = ${signed(earnedCoins)}.</p>`}
      ${mine.reward.left && html`<p class="banner banner-warning">You left, or a bot played most of your turns, so
        this game counts as left: no prize and no XP.</p>`}
      ${game.mode === 'bots' && html`<p class="muted">Practice games against bots pay no coins and no XP.</p>`}
      ${mine.reward.one_person && html`<p class="muted one-person">Only you and bots played at this friends table
        (a seat a bot played most turns of counts as a bot), so it paid as practice does: no coins and no XP. Invite
        a friend to play for coins.</p>`}
      ${mine.reward.level_up && html`<p class="banner banner-success level-up" role="status">Level up! This game
        took you to level ${mine.reward.level_up}.</p>`}
      <${XpBar} me=${me} />
    </section>`}
    <section class="card" aria-labelledby="placings-title">
      <h2 id="placings-title">Placings</h2>
      <table class="results">
        <thead><tr><th scope="col">Place</th><th scope="col">Player</th>
          ${module?.scoreLabel && html`<th scope="col">${scoreTitle(module, game.seats.length)}</th>`}
          <th scope="col" class="num">Net coins</th><th scope="col" class="num">XP</th>
          ${rated && html`<th scope="col" class="num">Rating</th>`}</tr></thead>
        <tbody>
          ${rows.map((row) => html`<tr key=${row.index} class=${row.index === mySeat ? 'mine' : ''}>
            <td><span class=${`medal medal-${MEDALS[row.place] || 'none'}`}>${ordinal(row.place)}</span></td>
            <td>${row.seat.kind === 'human' && row.index !== mySeat ? html`<${ProfileLink} username=${row.seat.name} />`
              : row.seat.name}${row.index === mySeat ? html` <span class="tag tag-you">you</span>` : ''}
              ${row.seat.kind === 'bot' && html` <span class="tag tag-bot" title=${botTag(game.mode).title}>${botTag(game.mode).text}</span>`}
              ${row.reward.left && html` <span class="tag tag-away">left</span>`}</td>
            ${module?.scoreLabel && html`<td>${game.scores ? module.scoreLabel(game.scores[row.index], { seats: game.seats.length }) : ''}</td>`}
            <td class="num" title=${netParts(row.reward)}>${signed(net(row.reward))}
              ${netParts(row.reward) && html`<br /><small class="muted">${netParts(row.reward)}</small>`}</td>
            <td class="num">${signed(row.reward.xp || 0)}</td>
            ${rated && html`<td class="num"><${RatingChange} rating=${row.reward.rating} /></td>`}
          </tr>`)}
        </tbody>
      </table>
    </section>
    ${mine && module && html`<${RematchBox} tableId=${game.id} username=${me.username} />`}
    <div class="row">
      ${module && html`<a class="btn" href=${`#/replay/${game.id}`}>Replay the game</a>`}
      ${module && html`<a class="btn" href=${againLink(game)}>New game</a>`}
      ${LEAGUE_MODES.includes(game.mode) && html`<a class="btn" href=${`#/league?game=${game.game}`}>League standings</a>`}
      <a class="btn" href="#/lobby">Back to the lobby</a>
      <a class="btn btn-ghost" href="#/games">My past games</a>
      ${me?.guest && html`<a class="btn" href="#/signup">Sign up to keep this game</a>`}
    </div>
  <//>`;
}
