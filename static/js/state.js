// The little state the whole app shares: who is logged in, the socket's state, invitations and notes to show.
// Screens keep their own data; this holds only what the header, the banners and several screens read.
import { useEffect, useState } from './lib.js';

const listeners = new Set();

export const store = {
  me: null, // /api/me: id, username, coins, xp, level, level_xp, next_level_xp, active (running shop items)
  connection: 'offline', // offline | connecting | open | reconnecting | closed | replaced
  retryIn: 0, // seconds before the next reconnection attempt
  offline: false, // the browser says it has no network (reconnecting waits for it)
  invitations: [], // pending invitations (GET /api/invitations, then socket notices)
  friendsUnseen: 0, // friend requests to me not seen yet: the Friends badge (GET /api/friends/unseen)
  toasts: [], // short notes: {id, text, kind}
};

export function setStore(patch) {
  Object.assign(store, patch);
  for (const listener of [...listeners]) listener();
}

/** Re-render the calling component whenever the store changes. */
export function useStore() {
  const [, bump] = useState(0);
  useEffect(() => {
    const listener = () => bump((n) => n + 1);
    listeners.add(listener);
    return () => listeners.delete(listener);
  }, []);
  return store;
}

let toastIds = 0;

export function toast(text, kind = 'info', seconds = 5) {
  const id = ++toastIds;
  setStore({ toasts: [...store.toasts, { id, text, kind }] });
  setTimeout(() => dismissToast(id), seconds * 1000);
  return id;
}

export function dismissToast(id) {
  if (store.toasts.some((t) => t.id === id)) setStore({ toasts: store.toasts.filter((t) => t.id !== id) });
}

// The log-in hint: the session cookie is HttpOnly, so the page remembers only that someone logged in here, to
// ask /api/me at start instead of showing the log-in form to a logged-in player.
const HINT = 'tablestakes.user';

export const loginHint = {
  get: () => {
    try {
      return localStorage.getItem(HINT);
    } catch {
      return null;
    }
  },
  set: (name) => {
    try {
      localStorage.setItem(HINT, name);
    } catch {
      /* private mode: the log-in form shows after a reload, nothing worse */
    }
  },
  clear: () => {
    try {
      localStorage.removeItem(HINT);
    } catch {
      /* as above */
    }
  },
};
