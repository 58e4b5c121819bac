// The app: header, banners and the screen the address names.
import { html, render, useEffect, useState } from './lib.js';
import { go, parseRoute, useRoute } from './router.js';
import { acceptInvitation, boot, declineInvitation, logOut } from './session.js';
import { socket } from './socket.js';
import { dismissToast, setStore, useStore } from './state.js';
import { ActionButton, coins, when } from './ui.js';
import { AuthScreen } from './screens/auth.js';
import { FriendsScreen } from './screens/friends.js';
import { FrontScreen } from './screens/front.js';
import { HistoryScreen } from './screens/history.js';
import { LeagueScreen } from './screens/league.js';
import { LobbyScreen } from './screens/lobby.js';
import { ProfileScreen } from './screens/profile.js';
import { QueueScreen } from './screens/queue.js';
import { ResultsScreen } from './screens/results.js';
import { RoomScreen } from './screens/room.js';
import { SetupScreen } from './screens/setup.js';
import { ShopScreen } from './screens/shop.js';
import { ReplayScreen } from './screens/replay.js';
import { TableScreen, WatchScreen } from './screens/table.js';
import { WalletScreen } from './screens/wallet.js';

const NAV = [
  ['lobby', '#/lobby', 'Play'],
  ['friends', '#/friends', 'Friends'],
  ['games', '#/games', 'My games'],
  ['wallet', '#/wallet', 'Wallet'],
  ['league', '#/league', 'League'],
  ['shop', '#/shop', 'Shop'],
];
// A guest plays vs bots only (the server refuses the rest with guest_account): it sees what it can use.
const GUEST_NAV = new Set(['lobby', 'games']);
const GUEST_SCREENS = new Set(['lobby', 'setup', 'table', 'watch', 'replay', 'results', 'games', 'signup', 'missing']);

// Short names for the header's chips of running shop items (the shop shows the full titles).
const RUNNING_LABELS = { booster: 'Booster', vip: 'VIP' };

/** Logging out of a guest account loses it (and its games) for good: say so first and offer to sign up instead. */
function GuestLogOutConfirm({ onCancel }) {
  return html`<div class="confirm confirm-logout" role="group" aria-label="Confirm logging out of the guest account">
    <p><strong>Log out of this guest account?</strong> It cannot be logged into again: its games are lost unless
      you sign up first.</p>
    <div class="row">
      <a class="btn btn-primary btn-small" href="#/signup" onClick=${onCancel}>Sign up to keep them</a>
      <button type="button" class="btn btn-small" onClick=${() => logOut()}>Log out anyway</button>
      <button type="button" class="btn btn-ghost btn-small" onClick=${onCancel}>Cancel</button>
    </div>
  </div>`;
}

function Header({ me, route, unseen }) {
  // At a table on a phone the header is one row: the navigation opens from "Menu", so the game keeps the screen.
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [route.path]);
  const compact = route.name === 'table';
  const [confirmingLogOut, setConfirmingLogOut] = useState(false);
  // /api/me lists what ran when it was read; one that ended since then is not shown.
  const running = (me?.active || []).filter((item) => Date.parse(item.ends_at) > Date.now());
  const runningText = running.map((item) => `, ${item.title} until ${when(item.ends_at)}`).join('');
  return html`<header class=${`topbar${compact ? ' topbar-compact' : ''}${menuOpen ? ' menu-open' : ''}`}>
    <a class="skip" href="#main" onClick=${(e) => {
      e.preventDefault();
      document.getElementById('page-title')?.focus();
    }}>Skip to content</a>
    <div class="topbar-row">
      <a class="brand" href="#/" aria-label="Tablestakes: home"><span class="brand-mark" aria-hidden="true"></span><span class="brand-name">Tablestakes</span></a>
      ${me && html`<nav class="nav" id="main-nav" aria-label="Main">
        ${NAV.filter(([name]) => !me.guest || GUEST_NAV.has(name)).map(([name, href, label]) => {
          // The Friends badge: requests not seen yet. The link keeps its name; the count is its description.
          const badge = name === 'friends' && unseen > 0;
          return html`<a href=${href} class=${route.name === name ? 'current' : ''}
            aria-current=${route.name === name ? 'page' : undefined}
            aria-describedby=${badge ? 'friends-unseen' : undefined}>${label}${badge ? html` <span class="nav-badge"
              aria-hidden="true">${unseen}</span><span id="friends-unseen" hidden>${unseen} new friend
              request${unseen === 1 ? '' : 's'}</span>` : ''}</a>`;
        })}
        ${me.guest && html`<a href="#/signup" class="nav-signup">Sign up</a>`}
        <button type="button" class="nav-logout"
          onClick=${() => (me.guest ? setConfirmingLogOut(true) : logOut())}>Log out</button>
      </nav>`}
      ${me && html`<div class="me-chip" aria-label=${`${me.username}: ${coins(me.coins)}, level ${me.level}${runningText}`}>
        <span class="me-name">${me.username}</span>
        <span class="chip chip-coins" title="Coins"><span aria-hidden="true">●</span> ${coins(me.coins)}</span>
        <span class="chip chip-level">Lv ${me.level}</span>
        ${running.map((item) => html`<a class="chip chip-running" href="#/shop"
          title=${`${item.title}: coin prizes ×${item.multiplier} until ${when(item.ends_at)}`}><span class="chip-running-name">${RUNNING_LABELS[item.item] || item.title} </span>×${item.multiplier}</a>`)}
      </div>`}
      ${me && compact && html`<button type="button" class="menu-toggle" aria-expanded=${menuOpen ? 'true' : 'false'}
        aria-controls="main-nav" onClick=${() => setMenuOpen(!menuOpen)}>Menu</button>`}
    </div>
    ${me?.guest && confirmingLogOut && html`<${GuestLogOutConfirm} onCancel=${() => setConfirmingLogOut(false)} />`}
  </header>`;
}

function ConnectionBanner({ state }) {
  if (!state.me) return null;
  if (state.connection === 'reconnecting') {
    return html`<div class="banner banner-warning" role="status">
      <span><strong>${state.offline ? 'You are offline.' : 'Connection lost.'}</strong>${' '}
        ${state.offline ? 'Reconnecting when the network is back.' : state.retryIn > 0 ? `Reconnecting in ${state.retryIn} s…` : 'Reconnecting…'}${' '}
        Your seats are kept; a bot covers your turns if it takes long.</span>
      <button type="button" class="btn btn-small" onClick=${() => socket.retryNow()}>Reconnect now</button>
    </div>`;
  }
  if (state.connection === 'replaced') {
    return html`<div class="banner banner-warning" role="status">
      <span>This page stopped following your games: Tablestakes is open in too many other tabs or devices.</span>
      <button type="button" class="btn btn-small" onClick=${() => socket.start()}>Use this page</button>
    </div>`;
  }
  if (state.connection === 'closed') {
    return html`<div class="banner banner-error" role="alert">
      <span>The server refused this page's live connection. Reload the page to try again.</span>
      <button type="button" class="btn btn-small" onClick=${() => location.reload()}>Reload</button>
    </div>`;
  }
  return null;
}

// The tray shows the newest few; the rest wait in the lobby, so a flood of invitations never covers a table.
const TRAY_SHOWN = 2;

function InvitationTray({ invitations }) {
  if (!invitations || !invitations.length) return null;
  const hide = (id) => setStore({ trayInvitations: invitations.filter((i) => i.id !== id) });
  const more = invitations.length - TRAY_SHOWN;
  return html`<div class="tray" role="region" aria-label="New invitations">
    ${more > 0 && html`<div class="tray-item tray-more">
      <p>${more} more new invitation${more === 1 ? '' : 's'} in the <a href="#/lobby">lobby</a>.</p>
      <div class="row"><button type="button" class="btn btn-ghost btn-small"
        onClick=${() => setStore({ trayInvitations: [] })}>Later for all</button></div>
    </div>`}
    ${invitations.slice(0, TRAY_SHOWN).map((inv) => html`<div class="tray-item" key=${inv.id}>
      <p><strong>${inv.from}</strong> invites you to play <strong>${inv.title}</strong>${' '}
        (${inv.taken} of ${inv.seats} seats taken).</p>
      <div class="row">
        <${ActionButton} class="btn btn-primary btn-small" onAction=${() => acceptInvitation(inv)}>Accept<//>
        <${ActionButton} class="btn btn-small" onAction=${() => declineInvitation(inv)}>Decline<//>
        <button type="button" class="btn btn-ghost btn-small" onClick=${() => hide(inv.id)}>Later</button>
      </div>
    </div>`)}
  </div>`;
}

function Toasts({ toasts }) {
  return html`<div class="toasts" role="status" aria-live="polite">
    ${toasts.map((t) => html`<div class=${`toast toast-${t.kind}`} key=${t.id}>
      <span>${t.text}</span>
      <button type="button" class="toast-close" aria-label="Dismiss" onClick=${() => dismissToast(t.id)}>×</button>
    </div>`)}
  </div>`;
}

const SCREENS = {
  lobby: LobbyScreen,
  setup: SetupScreen,
  friends: FriendsScreen,
  room: RoomScreen,
  table: TableScreen,
  watch: WatchScreen,
  replay: ReplayScreen,
  results: ResultsScreen,
  wallet: WalletScreen,
  games: HistoryScreen,
  queue: QueueScreen,
  league: LeagueScreen,
  shop: ShopScreen,
  profile: ProfileScreen,
};

function Missing() {
  return html`<section class="page"><h1 id="page-title" tabindex="-1">Nothing here</h1>
    <p>That address is not a Tablestakes screen. <a href="#/lobby">Go to the lobby</a>.</p></section>`;
}

function App() {
  const state = useStore();
  const route = useRoute();
  const me = state.me;
  const guest = Boolean(me?.guest);
  useEffect(() => {
    // The address as it is now: a sign-up may have moved on (to the history) before this render's route caught up.
    const here = parseRoute().name;
    if (me && (here === 'login' || (here === 'signup' && !guest))) go('/lobby');
    if (guest && !GUEST_SCREENS.has(here)) go('/lobby');
  }, [me, guest, route.name]);
  let screen;
  if (!me && (route.name === 'login' || route.name === 'signup')) screen = html`<${AuthScreen} mode=${route.name} />`;
  else if (!me) screen = html`<${FrontScreen} />`;
  else if (guest && route.name === 'signup') screen = html`<${AuthScreen} mode="upgrade" />`;
  else if (route.name === 'login' || route.name === 'signup' || (guest && !GUEST_SCREENS.has(route.name))) {
    screen = null;
  } else {
    const Screen = SCREENS[route.name] || Missing;
    screen = html`<${Screen} key=${route.path} params=${route.params} me=${me} />`;
  }
  return html`
    <${Header} me=${me} route=${route} unseen=${state.friendsUnseen} />
    <${ConnectionBanner} state=${state} />
    <${InvitationTray} invitations=${me && route.name !== 'lobby' ? state.trayInvitations : []} />
    <main id="main">${screen}</main>
    <${Toasts} toasts=${state.toasts} />`;
}

boot().finally(() => {
  const root = document.getElementById('app');
  root.textContent = '';
  render(html`<${App} />`, root);
});
