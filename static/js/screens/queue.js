// Online and staked play: choose a table size (and a stake), queue on the socket, wait at the forming table with
// its fill timer, and go to the table when it forms (docs/protocol.md, "Matchmaking"; platform.md, "The four modes").
import { get } from '../api.js';
import { gameModule } from '../games/index.js';
import { html, useEffect, useRef, useState } from '../lib.js';
import { go } from '../router.js';
import { refreshMe } from '../session.js';
import { socket } from '../socket.js';
import { toast } from '../state.js';
import { coins, ErrorNote, Loading, MODE_NAMES, Page, useLoad, useNow } from '../ui.js';

const REASONS = {
  fill_time: 'the table did not fill in time',
  cancelled: 'your seat was given up while your stake was moving',
  stakes_missing: 'a stake could not be collected',
  error: 'the table could not be created',
  away: 'you were away longer than the seat is kept',
  lost: 'the server lost your place while you were disconnected (it restarted)',
};

function Choice({ name, legend, options, value, onChange }) {
  return html`<fieldset class="field choice">
    <legend>${legend}</legend>
    <div class="segmented">
      ${options.map(([v, label, note, disabled]) => html`<label key=${v} class=${value === v ? 'checked' : ''}>
        <input type="radio" name=${name} value=${v} checked=${value === v} disabled=${disabled} onChange=${() => onChange(v)} />
        <span>${label}${note && html`<small>${note}</small>`}</span>
      </label>`)}
    </div>
  </fieldset>`;
}

function Waiting({ data, onLeave, busy, error, total, grace }) {
  const now = useNow(200);
  const fill = data.fill_ends_at ? Math.max(0, data.fill_ends_at - (now + data.skew)) : null;
  const queue = data.queue || {};
  const module = gameModule(queue.game); // the queue I am in, whichever screen address led here
  const staked = queue.mode === 'staked';
  const secs = fill === null ? null : Math.ceil(fill);
  return html`<section class="card queue-card" aria-labelledby="waiting-title">
    <h2 id="waiting-title">Looking for players…</h2>
    <p><strong>${module ? module.title : queue.game}</strong> · ${queue.seats} seats · ${MODE_NAMES[queue.mode] || queue.mode}
      ${staked ? html` · stake ${coins(queue.stake)}` : ''}</p>
    <div class="seats-dots" role="img" aria-label=${`${data.players} of ${data.seats} seats taken`}>
      ${Array.from({ length: data.seats }, (_, i) => html`<span key=${i} class=${i < data.players ? 'taken' : ''}></span>`)}
      <strong>${data.players} of ${data.seats}</strong>
    </div>
    ${secs !== null && html`<div class="fill-timer" role="timer" aria-label=${`${secs} seconds to fill the table`}>
      <span>${secs} s</span>
      <span class="fill-bar" aria-hidden="true"><span style=${`width:${Math.min(100, (100 * fill) / total)}%`}></span></span>
    </div>`}
    <p class="muted">${staked
      ? 'Staked tables fill with real people only. If this one is not full when the time runs out, it is cancelled and your stake comes back.'
      : 'If the table is not full when the time runs out, simulated players take the empty seats (they win nothing, and league points are halved).'}
      ${' '}If this page closes or loses its connection, your seat waits ${grace} s for you to come back, then is given up${staked ? ' and your stake returned' : ''}.</p>
    <div class="row">
      <button type="button" class="btn" onClick=${onLeave} disabled=${busy}>${staked ? 'Leave and get my stake back' : 'Leave the queue'}</button>
    </div>
    <${ErrorNote} error=${error} />
  </section>`;
}

export function QueueScreen({ params, me }) {
  const module = gameModule(params.game);
  const mode = params.mode;
  // Staked: also how many people wait at each stake (`staked_waiting`), polled while choosing.
  const status = useLoad(() => get(mode === 'staked' ? `/api/matchmaking?game=${encodeURIComponent(params.game)}` : '/api/matchmaking'),
    [params.game, mode]);
  const options = status.data?.options;
  const game = options?.games.find((g) => g.name === params.game);
  const [seats, setSeats] = useState(null);
  const [stake, setStake] = useState(null);
  const [waiting, setWaiting] = useState(null); // matchmaking data while waiting (+ skew, fill_total)
  const [ended, setEnded] = useState(null); // why the last wait ended
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const alive = useRef(true);
  useEffect(() => () => {
    alive.current = false;
  }, []);

  const take = (data) => {
    if (!alive.current || !data) return;
    if (data.event === 'waiting' || data.status === 'waiting') {
      const skew = typeof data.now === 'number' ? data.now - Date.now() / 1000 : 0;
      setWaiting({ ...data, skew });
      setEnded(null);
    } else if (data.event === 'matched' && data.table_id) {
      setWaiting(null);
      go(`/table/${data.table_id}`);
    } else if (data.event === 'cancelled') {
      setWaiting(null);
      setEnded({ kind: 'cancelled', reason: data.reason, refunded: data.refunded });
      refreshMe();
    } else if (data.event === 'left' || data.event === 'idle') {
      setWaiting(null);
      refreshMe();
    }
  };

  // After a reconnection, a wait this screen still shows may be over: matched while the socket was down, or lost
  // with a restarted server. Ask where we stand instead of showing a countdown to nothing.
  const waitingNow = useRef(null);
  waitingNow.current = waiting;
  const recheck = async () => {
    const was = waitingNow.current;
    if (!was) return;
    let now;
    try {
      now = await get('/api/matchmaking');
    } catch {
      return; /* offline again: the next socket asks again */
    }
    if (!alive.current || waitingNow.current !== was) return; // a notice came meanwhile and said it
    if (now.status === 'playing' && now.table_id) {
      take({ event: 'matched', table_id: now.table_id });
    } else if (now.status === 'idle') {
      take({ event: 'cancelled', reason: 'lost', refunded: was.queue?.mode === 'staked' ? was.queue.stake : 0 });
    }
  };
  useEffect(() => socket.onNotice((message) => {
    if (message.type === 'matchmaking') take(message.data);
    if (message.type === 'hello') recheck();
  }), []);
  useEffect(() => {
    if (status.data?.status === 'waiting') take(status.data);
  }, [status.data]);
  useEffect(() => {
    if (game && seats === null) setSeats(Math.min(game.max_seats, Math.max(game.min_seats, 3)));
    if (options && stake === null) setStake(options.stakes[0]);
  }, [game, options]);

  useEffect(() => {
    if (mode !== 'staked' || waiting) return undefined;
    const timer = setInterval(() => status.reload(), 5000);
    return () => clearInterval(timer);
  }, [mode, waiting, status.reload]);

  const queue = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setEnded(null);
    try {
      const ack = await socket.request({ type: 'queue', game: params.game, seats, mode, ...(mode === 'staked' ? { stake } : {}) });
      if (mode === 'staked') refreshMe();
      take(ack.matchmaking);
    } catch (failure) {
      setError(failure);
    } finally {
      if (alive.current) setBusy(false);
    }
  };
  const leave = async () => {
    setBusy(true);
    setError(null);
    try {
      const ack = await socket.request({ type: 'unqueue' });
      const data = ack.matchmaking || {};
      if (data.refunded) toast(`Your stake of ${coins(data.refunded)} is back in your wallet.`, 'success');
      take(data.event ? data : { event: 'left' });
    } catch (failure) {
      setError(failure);
    } finally {
      if (alive.current) setBusy(false);
    }
  };

  const title = module ? `${module.title}: ${mode === 'staked' ? 'staked table' : 'play online'}` : 'Find a table';
  if (!module || !['online', 'staked'].includes(mode)) {
    return html`<${Page} title=${title}><p>There is no such game or mode here. <a href="#/lobby">Back to the lobby</a>.</p><//>`;
  }
  const playing = status.data?.status === 'playing' ? status.data.table_id : null;
  const span = [];
  if (game) for (let n = game.min_seats; n <= game.max_seats; n += 1) span.push([n, `${n}`, module.seatNote ? module.seatNote(n) : null]);
  const waitingAt = (s) => (status.data?.staked_waiting || []).find((w) => w.seats === seats && w.stake === s)?.players || 0;
  const stakes = (options?.stakes || []).map((s) => [s, coins(s),
    s > me.coins ? 'not enough coins' : `${waitingAt(s)} waiting`, s > me.coins]);
  const fillSeconds = mode === 'staked' ? options?.staked_fill_seconds : options?.online_fill_seconds;
  // Staked tables move coins between players: they open at a level (the server refuses below it too).
  const levelNeeded = mode === 'staked' ? (options?.staked_min_level ?? 1) : 1;
  const belowLevel = (me.level ?? 1) < levelNeeded;
  return html`<${Page} title=${title}>
    ${status.loading && !status.data && html`<${Loading} />`}
    <${ErrorNote} error=${status.error} />
    ${playing && html`<p class="banner banner-info">You are playing at a matchmade table.${' '}
      <a class="btn btn-primary btn-small" href=${`#/table/${playing}`}>Go to the table</a></p>`}
    ${ended && html`<p class="banner banner-warning" role="alert">${['away', 'lost'].includes(ended.reason) ? 'Your seat was given up' : 'The table was cancelled'}: ${REASONS[ended.reason] || ended.reason}.
      ${ended.refunded ? ` Your stake of ${coins(ended.refunded)} is back in your wallet.` : ''}</p>`}
    ${waiting
      ? html`<${Waiting} data=${waiting} onLeave=${leave} busy=${busy} error=${error} grace=${Math.round(options?.queue_grace_seconds ?? 10)}
          total=${(waiting.queue?.mode === 'staked' ? options?.staked_fill_seconds : options?.online_fill_seconds) || 20} />`
      : game && options && !playing && html`<form class="card form" onSubmit=${queue}>
          <${Choice} name="seats" legend="Table size (you included)" options=${span} value=${seats} onChange=${setSeats} />
          ${mode === 'staked' && html`<${Choice} name="stake" legend="Stake" options=${stakes} value=${stake} onChange=${setStake} />
            <p class="field-note">The stake leaves your wallet when you sit down. The whole pot goes to first place (shared on a tie);
              boosters never multiply it. You have ${coins(me.coins)}.</p>`}
          ${mode === 'online' && html`<p class="field-note">Every place wins coins, and the game counts for the weekly league.
            Empty seats are filled by simulated players after ${Math.round(fillSeconds)} s.</p>`}
          ${mode === 'staked' && html`<p class="field-note">Only real people: a table not full after ${Math.round(fillSeconds)} s is cancelled and
            every stake returned.</p>`}
          ${belowLevel && html`<p class="banner banner-info">Staked tables open at level ${levelNeeded}; you are level ${me.level}.
            Finish online or friends games to get there.</p>`}
          <${ErrorNote} error=${error} />
          <div class="row">
            <button type="submit" class="btn btn-primary" disabled=${busy || belowLevel || (mode === 'staked' && stake > me.coins)}>
              ${busy ? 'Please wait…' : mode === 'staked' ? `Stake ${coins(stake || 0)} and find a table` : 'Find a table'}</button>
            <a class="btn btn-ghost" href="#/lobby">Back</a>
          </div>
        </form>`}
  <//>`;
}
