// Small shared pieces: page frame, error notes, XP bar, number and date formats, data loading, a ticking clock.
import { errorText } from './api.js';
import { html, useCallback, useEffect, useLayoutEffect, useRef, useState } from './lib.js';

/** A screen: its heading takes the focus when the screen opens, so keyboard and screen-reader users start there.
 * `actions`: buttons for the whole screen, in its header (the table's How to play). */
export function Page({ title, subtitle, wide, compact, actions, children }) {
  const heading = useRef(null);
  useLayoutEffect(() => {
    heading.current?.focus({ preventScroll: true });
  }, [title]);
  const cls = `page${wide ? ' page-wide' : ''}${compact ? ' page-compact' : ''}`;
  return html`<section class=${cls} aria-labelledby="page-title">
    <header class="page-head">
      <h1 id="page-title" tabindex="-1" ref=${heading}>${title}</h1>
      ${subtitle && html`<p class="subtitle">${subtitle}</p>`}
      ${actions && html`<div class="page-actions">${actions}</div>`}
    </header>
    ${children}
  </section>`;
}

/** A refusal, in plain words, where the action was. Empty when there is none. */
export function ErrorNote({ error, id }) {
  if (!error) return html`<p class="error-note empty" id=${id} aria-live="polite"></p>`;
  return html`<p class="error-note" id=${id} role="alert"><span class="error-icon" aria-hidden="true">!</span>
    ${typeof error === 'string' ? error : errorText(error)}</p>`;
}

export function Loading({ what = 'Loading' }) {
  return html`<p class="loading" role="status">${what}…</p>`;
}

export const number = (n) => Number(n || 0).toLocaleString('en-US');

export function coins(n) {
  return `${number(n)} coin${Math.abs(n) === 1 ? '' : 's'}`;
}

export function signed(n) {
  return n > 0 ? `+${number(n)}` : n < 0 ? `−${number(-n)}` : '0';
}

export function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? 'th' : { 1: 'st', 2: 'nd', 3: 'rd' }[n % 10] || 'th';
  return `${n}${tail}`;
}

export function when(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' });
}

/** platform.md's one word for a seat a program plays: a "simulated player" fills an online table matchmaking left
 * empty; at practice and friends tables it is a "bot". The table and the results tag such seats alike. */
export function botTag(mode) {
  return mode === 'online'
    ? { text: 'simulated', title: 'A simulated player: it takes a place but wins nothing' }
    : { text: 'bot', title: 'A bot' };
}

/** A rating (docs/ratings.md) as one number; "?" marks a provisional one. The title says its uncertainty. */
export function ratingTitle(rating) {
  if (rating.fixed) return `Rating ${rating.rating}: a simulated player's fixed rating`;
  const provisional = rating.provisional ? '; provisional until it has played enough rated games' : '';
  return `Rating ${rating.rating} ± ${rating.deviation}${provisional}`;
}

export function RatingTag({ rating }) {
  if (!rating || rating.rating === undefined) return null;
  return html`<span class="tag tag-rating" title=${ratingTitle(rating)}><span class="visually-hidden">rating </span>${rating.rating}${rating.provisional ? '?' : ''}</span>`;
}

/** A person's name linking to their profile (#/u/NAME). */
export function ProfileLink({ username, children }) {
  return html`<a class="profile-link" href=${`#/u/${encodeURIComponent(username)}`}>${children || username}</a>`;
}

export const MODE_NAMES = {
  bots: 'practice vs bots',
  friends: 'with friends',
  online: 'online',
  staked: 'staked table',
};

/** Level, and XP within the level as a bar with its numbers in text. */
export function XpBar({ me, compact }) {
  if (!me) return null;
  const start = me.level_xp ?? 0;
  const end = me.next_level_xp ?? start + 100;
  const into = Math.max(0, me.xp - start);
  const span = Math.max(1, end - start);
  const percent = Math.min(100, Math.round((100 * into) / span));
  const label = `Level ${me.level}: ${number(into)} of ${number(span)} XP towards level ${me.level + 1}`;
  return html`<div class=${`xp${compact ? ' xp-compact' : ''}`}>
    <div class="xp-text"><strong>Level ${me.level}</strong>
      <span>${number(me.xp)} XP · ${number(end - me.xp)} to level ${me.level + 1}</span></div>
    <div class="xp-bar" role="progressbar" aria-label=${label} aria-valuemin="0" aria-valuemax=${span}
      aria-valuenow=${into}><div class="xp-fill" style=${`width:${percent}%`}></div></div>
  </div>`;
}

/** Load something once (and again on `reload()`): {data, error, loading, reload, setData}. */
export function useLoad(load, deps = []) {
  const [state, setState] = useState({ data: null, error: null, loading: true });
  const alive = useRef(true);
  const run = useCallback(() => {
    setState((s) => ({ ...s, loading: true }));
    return load().then(
      (data) => alive.current && setState({ data, error: null, loading: false }),
      (error) => alive.current && setState((s) => ({ ...s, error, loading: false })),
    );
  }, deps);
  useEffect(() => {
    alive.current = true;
    run();
    return () => {
      alive.current = false;
    };
  }, [run]);
  return { ...state, reload: run, setData: (data) => setState((s) => ({ ...s, data })) };
}

/** Re-render every `ms` while `active`; returns Date.now() in seconds. */
export function useNow(ms = 250, active = true) {
  const [now, setNow] = useState(Date.now() / 1000);
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(() => setNow(Date.now() / 1000), ms);
    return () => clearInterval(timer);
  }, [ms, active]);
  return now;
}

/** A button that runs an async action, shows it is busy, and shows the refusal right beside it. */
export function ActionButton({ onAction, children, class: cls = 'btn', label, disabled, ...rest }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const alive = useRef(true);
  useEffect(() => () => {
    alive.current = false;
  }, []);
  const click = async () => {
    setBusy(true);
    setError(null);
    try {
      await onAction();
    } catch (failure) {
      if (alive.current) setError(failure);
    } finally {
      if (alive.current) setBusy(false);
    }
  };
  return html`<span class="action">
    <button type="button" class=${cls} onClick=${click} disabled=${busy || disabled} aria-label=${label}
      ...${rest}>${children}</button>
    ${error && html`<${ErrorNote} error=${error} />`}
  </span>`;
}

// A one-field form that sends a username (add a friend, invite to a room): empty input refused locally, the
// server's refusal shown under it, `send(username)` returning the note to show on success.
export function UsernameForm({ id, label, button, emptyMessage, send, class: cls = 'form inline-form' }) {
  const [name, setName] = useState('');
  const [error, setError] = useState(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event) => {
    event.preventDefault();
    const username = name.trim();
    if (!username) {
      setError(emptyMessage);
      return;
    }
    setBusy(true);
    setError(null);
    setNote('');
    try {
      setNote(await send(username));
      setName('');
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return html`<form class=${cls} onSubmit=${submit}>
    <div class="field">
      <label for=${id}>${label}</label>
      <div class="row nowrap">
        <input id=${id} value=${name} maxlength="40" autocomplete="off" placeholder="username"
          onInput=${(e) => setName(e.currentTarget.value)} />
        <button type="submit" class="btn btn-primary" disabled=${busy}>${button}</button>
      </div>
    </div>
    ${note && html`<p class="ok-note" role="status">${note}</p>`}
    <${ErrorNote} error=${error} />
  </form>`;
}
