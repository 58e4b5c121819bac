// What a table tells a player who looks away: "Your turn" in the tab's title while it is their turn, a sound when
// the turn comes and when the game ends, and (only if they asked for it) a browser notification when the tab is
// hidden as their turn comes. TablePrefs holds the two switches: sound (remembered) and notifications.
import { html, useEffect, useRef, useState } from './lib.js';
import { playSound, useMuted } from './sound.js';

const NOTIFY_KEY = 'tablestakes.notify';
const APP_TITLE = 'Tablestakes';

function notifyWanted() {
  try {
    return localStorage.getItem(NOTIFY_KEY) === 'on';
  } catch {
    return false;
  }
}

function canNotify() {
  return typeof Notification === 'function' && Notification.permission === 'granted' && notifyWanted();
}

/**
 * The table's signals. `mine`: it is my turn now (I have moves); `finished`: the game is over; `title`: the game's
 * name; `hint`: a few words for the notification.
 */
export function useTableSignals({ id, mine, finished, title, hint }) {
  const wasMine = useRef(false);
  const wasFinished = useRef(finished);
  useEffect(() => {
    document.title = mine ? `Your turn · ${title} · ${APP_TITLE}` : finished ? `Game over · ${title} · ${APP_TITLE}`
      : `${title} · ${APP_TITLE}`;
  }, [mine, finished, title]);
  useEffect(() => () => {
    document.title = APP_TITLE;
  }, []);
  useEffect(() => {
    if (mine && !wasMine.current) {
      playSound('turn');
      if (document.visibilityState === 'hidden' && canNotify()) {
        try {
          const note = new Notification(`Your turn at ${title}`, { body: hint || 'The table is waiting for you.', tag: `turn-${id}` });
          note.onclick = () => {
            window.focus();
            note.close();
          };
        } catch {
          // some browsers only notify from a service worker: the title and the sound still tell
        }
      }
    }
    wasMine.current = mine;
  }, [mine]);
  useEffect(() => {
    if (finished && !wasFinished.current) playSound('end');
    wasFinished.current = finished;
  }, [finished]);
}

/** Sound on/off and "notify me" (the browser asks for permission only when the player switches it on). */
export function TablePrefs() {
  const [muted, setMuted] = useMuted();
  const supported = typeof Notification === 'function';
  const [notify, setNotify] = useState(() => supported && notifyWanted() && Notification.permission === 'granted');
  const [note, setNote] = useState('');
  const toggleNotify = async () => {
    if (notify) {
      localStorage.setItem(NOTIFY_KEY, 'off');
      setNotify(false);
      setNote('');
      return;
    }
    const answer = Notification.permission === 'granted' ? 'granted' : await Notification.requestPermission();
    if (answer === 'granted') {
      localStorage.setItem(NOTIFY_KEY, 'on');
      setNotify(true);
      setNote('');
    } else {
      setNote('Your browser blocks notifications from this site; its site settings can allow them.');
    }
  };
  return html`<div class="table-prefs" role="group" aria-label="Sound and notifications">
    <button type="button" class="btn btn-ghost btn-small pref-sound" aria-pressed=${muted ? 'false' : 'true'}
      aria-label="Sound" onClick=${() => setMuted(!muted)}>Sound: ${muted ? 'off' : 'on'}</button>
    ${supported && html`<button type="button" class="btn btn-ghost btn-small pref-notify" aria-pressed=${notify ? 'true' : 'false'}
      aria-label="Alert me on my turn" title="A browser notification when your turn comes while this tab is hidden"
      onClick=${toggleNotify}>Turn alerts: ${notify ? 'on' : 'off'}</button>`}
    ${note && html`<p class="muted pref-note" role="status">${note}</p>`}
  </div>`;
}
