// Logging in and out, the socket's life with the session, and notices that matter on every screen.
import { get, post, whenSessionEnds } from './api.js';
import { go, parseRoute } from './router.js';
import { socket } from './socket.js';
import { loginHint, setStore, store, toast } from './state.js';

export function signedIn(me) {
  loginHint.set(me.username);
  setStore({ me });
  socket.start();
  if (me.guest) return; // guests have no invitations, friends or queue (the server refuses them: guest_account)
  loadInvitations();
  loadFriendsUnseen();
}

export function signedOut(note) {
  loginHint.clear();
  socket.stop();
  setStore({ me: null, invitations: [], trayInvitations: [], friendsUnseen: 0 });
  if (note) toast(note, 'warning', 8);
  const here = parseRoute().name;
  if (here !== 'login' && here !== 'signup') go('/login');
}

export async function logOut() {
  try {
    await post('/api/auth/logout');
  } finally {
    signedOut();
  }
}

/** Coins and XP change after games and payments: read them again. */
export async function refreshMe() {
  if (!store.me) return;
  try {
    setStore({ me: await get('/api/me') });
  } catch {
    /* the header keeps the last numbers; a lost session is handled by api.js */
  }
}

export async function loadInvitations() {
  if (store.me?.guest) return;
  try {
    const { invitations } = await get('/api/invitations');
    setStore({ invitations });
  } catch {
    /* the lobby shows its own error when it loads them */
  }
}

/** The Friends badge comes from the server, so it survives a reload until Friends is opened (which marks the
 * requests seen: the friends screen does it). */
export async function loadFriendsUnseen() {
  if (parseRoute().name === 'friends' || store.me?.guest) return; // the screen shows them and marks them seen
  try {
    const { requests } = await get('/api/friends/unseen');
    setStore({ friendsUnseen: requests });
  } catch {
    /* the badge keeps its last number */
  }
}

// What a `friend` notice tells the player (docs/protocol.md); declines, withdrawals and removals only update lists.
const FRIEND_NEWS = {
  request: (name) => [`${name} wants to be your friend.`, 'info'],
  accepted: (name) => [`${name} accepted your friend request: you are friends now.`, 'success'],
};

// Refusals that mean the invitation is over (withdrawn, the room closed or started, full): its row goes, and a toast
// says why, instead of an Accept that can only fail again.
const INVITATION_OVER = new Set(['no_such_invitation', 'room_not_open', 'room_full']);

async function answerInvitation(invitation, path) {
  try {
    return await post(`/api/invitations/${invitation.id}/${path}`);
  } catch (error) {
    if (!INVITATION_OVER.has(error.code)) throw error;
    dropInvitation(invitation.id);
    if (path === 'accept') toast(`${invitation.from}'s ${invitation.title} room: ${error.message}`, 'warning');
    return null;
  }
}

export async function acceptInvitation(invitation) {
  const room = await answerInvitation(invitation, 'accept');
  if (!room) return;
  dropInvitation(invitation.id);
  go(`/room/${room.id}`);
}

export async function declineInvitation(invitation) {
  await answerInvitation(invitation, 'decline');
  dropInvitation(invitation.id);
}

export function dropInvitation(id) {
  setStore({
    invitations: store.invitations.filter((i) => i.id !== id),
    trayInvitations: (store.trayInvitations || []).filter((i) => i.id !== id),
  });
}

/** A queued seat outlives a reload or a dropped connection for a grace time: take it back on each new socket
 * (nothing is staked again). If it was given up meanwhile, every screen hears it as a `cancelled` notice. */
async function takeBackQueuedSeat() {
  if (store.me?.guest) return;
  let where;
  try {
    where = await get('/api/matchmaking');
  } catch {
    return; /* the queue screen shows its own error when it loads */
  }
  if (where.status !== 'waiting' || !where.queue) return;
  const { game, seats, mode, stake } = where.queue;
  let data;
  try {
    const ack = await socket.request({ type: 'queue', game, seats, mode, ...(stake ? { stake } : {}), rejoin: true });
    data = ack.matchmaking || {};
  } catch {
    return; /* the socket dropped again (the next one tries again), or the table formed meanwhile (its notice came) */
  }
  const notice = data.event === 'idle'
    ? { event: 'cancelled', reason: 'away', queue: where.queue, refunded: mode === 'staked' ? stake : 0 }
    : data;
  socket.receive({ type: 'matchmaking', data: notice });
}

function onNotice(message) {
  if (message.type === 'hello') {
    takeBackQueuedSeat();
    loadFriendsUnseen(); // requests that came while the socket was down
    return;
  }
  if (message.type === 'friend') {
    const { event, username } = message.data || {};
    const news = FRIEND_NEWS[event];
    if (news) toast(...news(username));
    loadFriendsUnseen(); // on Friends the screen reloads its lists instead, and marks requests seen
    return;
  }
  if (message.type === 'invitation') {
    const invitation = message.data;
    if (invitation.status !== 'pending') {
      dropInvitation(invitation.id); // withdrawn: the room closed or started, the host cancelled it, a block
      return;
    }
    const others = (list) => (list || []).filter((i) => i.id !== invitation.id);
    setStore({
      invitations: [invitation, ...others(store.invitations)],
      trayInvitations: [invitation, ...others(store.trayInvitations)],
    });
    return;
  }
  if (message.type === 'matchmaking') {
    // A table formed for me while I was on another screen: take me there (the queue screen does the same).
    const data = message.data || {};
    const here = parseRoute();
    if (data.event === 'matched' && data.table_id && here.name !== 'queue'
        && !(here.name === 'table' && here.params.id === data.table_id)) {
      go(`/table/${data.table_id}`);
    }
    if (data.event === 'cancelled' && here.name !== 'queue') {
      const what = data.reason === 'away'
        ? 'You were away longer than a queued seat is kept: it was given up'
        : `Your ${data.queue?.mode === 'staked' ? 'staked ' : ''}table was cancelled`;
      toast(`${what}${data.refunded ? `; ${data.refunded} coins are back in your wallet` : ''}.`, 'warning', 8);
      refreshMe();
    }
    return;
  }
  if (message.type === 'rematch') {
    // A rematch I agreed to started while I was elsewhere (the results screen and the game-over box take me there
    // themselves): go to it, as a matched table does, unless I am at another table, where a toast says so.
    const data = message.data || {};
    const here = parseRoute();
    const besideIt = ['results', 'table'].includes(here.name) && here.params.id === data.table;
    if (data.event !== 'started' || !data.table_id || besideIt || !(data.agreed || []).includes(store.me?.username)) {
      return;
    }
    if (here.name === 'table' && here.params.id === data.table_id) return;
    if (here.name === 'table') {
      toast('Your rematch started: it is in Games in progress in the lobby. A bot plays your seat until you go.',
            'info', 8);
      return;
    }
    go(`/table/${data.table_id}`);
    return;
  }
  if (message.type === 'room') {
    const { event, room } = message.data;
    const me = store.me;
    const seated = me && room.seats.some((seat) => seat && seat.user_id === me.id);
    if (event === 'started' && seated && room.table_id) {
      const here = parseRoute();
      if (!(here.name === 'table' && here.params.id === room.table_id)) go(`/table/${room.table_id}`);
    }
    if (event === 'closed' || event === 'started') {
      setStore({ invitations: store.invitations.filter((i) => i.room_id !== room.id) });
    }
  }
}

export async function boot() {
  whenSessionEnds(() => {
    if (store.me) signedOut('Your session has ended. Please log in again.');
  });
  socket.onUnauthorized = () => signedOut('Your session has ended. Please log in again.');
  socket.onNotice(onNotice);
  if (loginHint.get()) {
    try {
      signedIn(await get('/api/me'));
    } catch {
      loginHint.clear();
    }
  }
}
