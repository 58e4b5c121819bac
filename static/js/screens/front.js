// The front page for a visitor who is not logged in: what the site is, the four games with "Play now" (a guest
// account and a practice game against bots at once), and log in / sign up.
import { get, post } from '../api.js';
import { GAMES } from '../games/index.js';
import { HelpButton } from '../help/index.js';
import { html, useState } from '../lib.js';
import { go } from '../router.js';
import { signedIn } from '../session.js';
import { ErrorNote, Loading, Page, useLoad } from '../ui.js';

/** A guest plays at once: the account, then a practice table with the setup screen's default seats. */
export async function playAsGuest(game) {
  const me = await post('/api/auth/guest');
  signedIn(me);
  const seats = Math.min(game.max_seats, game.min_seats + 1);
  const table = await post('/api/tables', { game: game.name, seats });
  go(`/table/${table.id}`);
}

function FrontGame({ game, busy, onPlay }) {
  const module = GAMES[game.name];
  const players = game.min_seats === game.max_seats ? `${game.min_seats}` : `${game.min_seats}–${game.max_seats}`;
  return html`<article class="game-card" aria-labelledby=${`front-${game.name}`}>
    <div class="game-art" aria-hidden="true">${module.art ? module.art() : null}</div>
    <div class="game-body">
      <h3 id=${`front-${game.name}`}>${game.title}</h3>
      <p>${module.tagline}</p>
      <p class="muted">${players} players</p>
      <div class="row">
        <button type="button" class="btn btn-primary" disabled=${busy}
          aria-label=${`Play ${game.title} now against bots`} onClick=${() => onPlay(game)}>Play now</button>
        <${HelpButton} game=${game.name} entry=${game} class="btn btn-ghost" />
      </div>
    </div>
  </article>`;
}

export function FrontScreen() {
  const games = useLoad(() => get('/api/games'));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const offered = (games.data?.games || []).filter((g) => GAMES[g.name]);
  const play = async (game) => {
    setBusy(true);
    setError(null);
    try {
      await playAsGuest(game);
    } catch (failure) {
      setError(failure);
      setBusy(false);
    }
  };
  return html`<${Page} title="Card and dice games, with friends, bots or anyone" wide
      subtitle="Four quick games. Try any of them against bots right now, no account needed.">
    <section class="card front-account" aria-label="Your account">
      <p>Playing now makes a guest account: practice games against bots, no coins. Sign up any time to keep
        your games, get your starting coins and play online, with friends and in the weekly league.</p>
      <div class="row">
        <a class="btn" href="#/login">Log in</a>
        <a class="btn btn-primary" href="#/signup">Sign up</a>
      </div>
    </section>
    <section aria-labelledby="front-games-title">
      <h2 id="front-games-title" class="section-title">The games</h2>
      ${games.loading && !games.data && html`<${Loading} what="Loading the games" />`}
      <${ErrorNote} error=${games.error || error} />
      <div class="games">${offered.map((g) => html`<${FrontGame} key=${g.name} game=${g} busy=${busy}
        onPlay=${play} />`)}</div>
    </section>
  <//>`;
}
