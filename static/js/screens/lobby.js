// The lobby: coins, level and XP; games in progress, invitations and open rooms; the games and their modes.
import { get } from '../api.js';
import { GAMES } from '../games/index.js';
import { HelpButton } from '../help/index.js';
import { html, useEffect } from '../lib.js';
import { acceptInvitation, declineInvitation, loadInvitations, refreshMe } from '../session.js';
import { useStore } from '../state.js';
import { ActionButton, coins, ErrorNote, Loading, MODE_NAMES, Page, useLoad, when, XpBar } from '../ui.js';

function InProgress({ tables }) {
  if (!tables.length) return null;
  return html`<section class="card" aria-labelledby="live-title">
    <h2 id="live-title">Games in progress</h2>
    <ul class="list">
      ${tables.map((t) => html`<li key=${t.id} class="list-row">
        <span><strong>${GAMES[t.game]?.title || t.game}</strong> · ${MODE_NAMES[t.mode] || t.mode}</span>
        <a class="btn btn-primary btn-small" href=${`#/table/${t.id}`}>Rejoin</a>
      </li>`)}
    </ul>
  </section>`;
}

function Invitations({ invitations }) {
  if (!invitations.length) return null;
  return html`<section class="card" aria-labelledby="inv-title">
    <h2 id="inv-title">Invitations</h2>
    <ul class="list">
      ${invitations.map((inv) => html`<li key=${inv.id} class="list-row">
        <span><strong>${inv.from}</strong> invites you to <strong>${inv.title}</strong>${' '}
          <span class="muted">(${inv.taken}/${inv.seats} seats · sent ${when(inv.created_at)})</span></span>
        <span class="row">
          <${ActionButton} class="btn btn-primary btn-small" onAction=${() => acceptInvitation(inv)}>Accept<//>
          <${ActionButton} class="btn btn-small" onAction=${() => declineInvitation(inv)}>Decline<//>
        </span>
      </li>`)}
    </ul>
  </section>`;
}

function Queued({ status }) {
  if (!status || status.status !== 'waiting') return null;
  const queue = status.queue;
  return html`<section class="card" aria-labelledby="queued-title">
    <h2 id="queued-title">Looking for a table</h2>
    <div class="list-row">
      <span><strong>${GAMES[queue.game]?.title || queue.game}</strong> · ${MODE_NAMES[queue.mode] || queue.mode} ·${' '}
        ${status.players} of ${status.seats} seats taken</span>
      <a class="btn btn-primary btn-small" href=${`#/play/${queue.game}/${queue.mode}`}>Open</a>
    </div>
  </section>`;
}

function Rooms({ rooms, me }) {
  if (!rooms.length) return null;
  return html`<section class="card" aria-labelledby="rooms-title">
    <h2 id="rooms-title">Your rooms</h2>
    <ul class="list">
      ${rooms.map((room) => html`<li key=${room.id} class="list-row">
        <span><strong>${room.title}</strong> · ${room.host_id === me.id ? 'you host' : 'you are seated'}${' '}
          <span class="muted">(${room.seats.filter(Boolean).length}/${room.seats.length} seats)</span></span>
        <a class="btn btn-small" href=${`#/room/${room.id}`}>Open room</a>
      </li>`)}
    </ul>
  </section>`;
}

function GameCard({ game, guest }) {
  const module = GAMES[game.name];
  const players = game.min_seats === game.max_seats ? `${game.min_seats}` : `${game.min_seats}–${game.max_seats}`;
  return html`<article class="game-card" aria-labelledby=${`game-${game.name}`}>
    <div class="game-art" aria-hidden="true">${module.art ? module.art() : null}</div>
    <div class="game-body">
      <h3 id=${`game-${game.name}`}>${game.title}</h3>
      <p>${module.tagline}</p>
      <p class="muted">${players} players</p>
      <div class="row">
        <a class="btn btn-primary" href=${`#/new/${game.name}/bots`}>Practice vs bots</a>
        ${!guest && html`<a class="btn" href=${`#/new/${game.name}/friends`}>Play with friends</a>
        <a class="btn" href=${`#/play/${game.name}/online`} aria-label=${`Play ${game.title} online`}>Play online</a>
        <a class="btn" href=${`#/play/${game.name}/staked`} aria-label=${`${game.title}: staked table`}>Staked table</a>`}
        <${HelpButton} game=${game.name} entry=${game} class="btn btn-ghost" />
      </div>
    </div>
  </article>`;
}

export function LobbyScreen({ me }) {
  const state = useStore();
  const games = useLoad(() => get('/api/games'));
  const live = useLoad(() => get('/api/tables/mine'));
  // A guest has no rooms or queue (the server refuses it them): nothing to ask.
  const rooms = useLoad(() => (me.guest ? Promise.resolve({ rooms: [] }) : get('/api/rooms')));
  const queued = useLoad(() => (me.guest ? Promise.resolve(null) : get('/api/matchmaking')));
  useEffect(() => {
    refreshMe();
    loadInvitations();
  }, []);
  const offered = (games.data?.games || []).filter((g) => GAMES[g.name]);
  return html`<${Page} title=${`Hello, ${me.username}`} wide>
    <section class="card stats" aria-label="Your coins and level">
      <div class="stat"><span class="stat-label">Coins</span><span class="stat-value">${coins(me.coins)}</span></div>
      <div class="stat stat-xp"><${XpBar} me=${me} /></div>
    </section>
    ${me.guest && html`<section class="card guest-note" aria-label="Guest account">
      <p>You are playing as a guest: practice games against bots, no coins. <a class="btn btn-primary btn-small"
        href="#/signup">Sign up</a> to keep your games, get your starting coins and play online and with friends.</p>
    </section>`}
    ${live.data && html`<${InProgress} tables=${live.data.tables} />`}
    <${Queued} status=${queued.data} />
    <${Invitations} invitations=${state.invitations} />
    ${rooms.data && html`<${Rooms} rooms=${rooms.data.rooms} me=${me} />`}
    <section aria-labelledby="games-title">
      <h2 id="games-title" class="section-title">Choose a game</h2>
      ${games.loading && !games.data && html`<${Loading} what="Loading the games" />`}
      <${ErrorNote} error=${games.error} />
      <div class="games">${offered.map((g) => html`<${GameCard} key=${g.name} game=${g} guest=${me.guest} />`)}</div>
    </section>
  <//>`;
}
