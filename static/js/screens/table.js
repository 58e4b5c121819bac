// The table shell, the same for every game: whose turn and its timer, the seats (connected, away, bot), the game's
// log (the last few lines, and the whole of it on demand), reconnection, and the end of the game. The game itself is
// drawn by its module (games/<name>.js).
import { get } from '../api.js';
import { gameModule } from '../games/index.js';
import { HelpButton } from '../help/index.js';
import { html, useCallback, useEffect, useRef, useState } from '../lib.js';
import { go } from '../router.js';
import { refreshMe } from '../session.js';
import { RematchBox } from '../rematch.js';
import { socket } from '../socket.js';
import { toast, useStore } from '../state.js';
import { TablePrefs, useTableSignals } from '../tablefx.js';
import { botTag, coins, ErrorNote, Loading, MODE_NAMES, ordinal, Page, RatingTag, signed, useNow } from '../ui.js';

const LOG_KEEP = 5000; // the server's history holds at most as many (docs/protocol.md, "The game's log")
const LOG_RECENT = 6; // lines always in view at the table (fewer on a phone: log.css)

/** A seat's name; a bot's level is left to its "bot · level" tag ("Bot 1 (easy)" reads "Bot 1"). */
export function seatName(seat) {
  if (!seat) return '';
  return seat.kind === 'bot' ? seat.name.replace(/\s*\((easy|medium|hard)\)$/, '') : seat.name;
}

/** Names for event texts: "You" for my own seat. */
export function namer(info) {
  return (seat) => {
    if (seat === null || seat === undefined) return 'The table';
    if (seat === info.my_seat) return 'You';
    return seatName(info.seats[seat]) || `Seat ${seat + 1}`;
  };
}

/** The events every table has (docs/protocol.md, "Table messages"); the rest belong to the game's module. */
function describeTableEvent(event, name, me) {
  switch (event.type) {
    case 'seat_connected':
      return event.seat === me ? null : `${name(event.seat)} joined the table.`;
    case 'seat_disconnected':
      return event.seat === me ? null : `${name(event.seat)} lost the connection.`; // mine: the banner says it
    case 'seat_away':
      return event.seat === me ? 'A bot is playing for you until you act again.' : `A bot is playing for ${name(event.seat)}.`;
    case 'seat_back':
      return event.seat === me ? 'You are back in your seat.' : `${name(event.seat)} is back.`;
    case 'game_over':
      return null; // the game's own end event says how it ended; the game-over panel shows the rest
    case 'seat_resigned':
      return event.seat === me ? 'You left this game; a bot plays your seat to the end.' : `${name(event.seat)} left the game; a bot plays their seat.`;
    case 'table_cancelled':
      if (event.code === 'resigned') return 'You ended this practice game.';
      if (event.code === 'idle') return 'This practice game ended: nobody played it for a while.';
      return `This table was cancelled (${event.reason}); every stake was refunded.`;
    default:
      return undefined;
  }
}

/** Why nobody at the seat chose this move (docs/protocol.md: `auto` on its events), said before the move. */
function playedFor(event, name, info) {
  const mine = event.seat === info.my_seat;
  const who = mine ? 'you' : name(event.seat);
  const them = mine ? 'you' : 'them';
  switch (event.auto) {
    case 'timeout':
      return `Time ran out${mine ? '' : ` for ${who}`} — a bot played for ${them}: `;
    case 'covering_bot':
      if ((info.resigned || []).includes(event.seat)) return `${mine ? 'You' : who} left — a bot plays for ${them}: `;
      return `${mine ? 'You were' : `${who} was`} away — a bot played for ${them}: `;
    case 'automatic':
      return 'Automatic: ';
    default:
      return null;
  }
}

/** One line of the log for an event ({text, auto}), or null when it is not worth a line. */
export function describe(module, event, info) {
  const name = namer(info);
  const table = describeTableEvent(event, name, info.my_seat);
  if (table !== undefined) return table ? { text: table } : null;
  const text = module.describe(event, { name, me: info.my_seat, seats: info.seats });
  if (!text) return null;
  const why = typeof event.seat === 'number' ? playedFor(event, name, info) : null;
  // "You played green 5." reads "Time ran out — a bot played for you: you played green 5."
  return why ? { text: why + text.replace(/^You\b/, 'you'), auto: event.auto } : { text };
}

/** The log's lines for numbered events (socket.js gives each its version). */
function logLines(module, events, info) {
  const lines = [];
  for (const event of events) {
    const line = describe(module, event, info);
    if (line) lines.push({ ...line, version: event.version });
  }
  return lines;
}

export function SeatStrip({ info, view, module, acting, presence = true }) {
  return html`<ul class="seat-strip" aria-label="Players" tabindex="0">
    ${info.seats.map((seat) => {
      const mine = seat.seat === info.my_seat;
      const turn = acting.includes(seat.seat);
      let status;
      // Online tables fill empty seats with simulated players (platform.md): botTag says which word, as the results do.
      const tag = botTag(info.mode);
      const level = info.mode !== 'online' && seat.bot_level ? ` · ${seat.bot_level}` : '';
      if (seat.kind === 'bot') status = html`<span class="tag tag-bot" title=${tag.title}>${tag.text}${level}</span>`;
      else if (!presence) status = null; // a replay: who was connected then is not kept
      else if (seat.away) status = html`<span class="tag tag-away">away · bot covers</span>`;
      else if (!seat.connected) status = html`<span class="tag tag-offline">offline</span>`;
      else status = html`<span class="tag tag-online">online</span>`;
      return html`<li key=${seat.seat} class=${`seat${turn ? ' seat-turn' : ''}${mine ? ' seat-mine' : ''}`} data-seat=${seat.seat}
          aria-current=${turn ? 'true' : undefined}>
        <span class="seat-name">${turn && html`<span class="turn-mark" aria-hidden="true">▶</span>`}
          ${mine
            ? html`<span class="seat-label wide-only">${seat.name}</span><span class="tag tag-you wide-only">you</span>
                <span class="seat-label narrow-only">You</span>`
            : html`<span class="seat-label">${seatName(seat)}</span>`}</span>
        <span class="seat-line">${status}<${RatingTag} rating=${seat.rating} />${turn && html`<span class="tag tag-turn">to play</span>`}
          ${module.seatInfo && module.seatInfo(view, seat.seat, info)}</span>
      </li>`;
    })}
  </ul>`;
}

function TurnBar({ info, view, legal, serverNow, module }) {
  const acting = view.to_act || [];
  const finished = info.status === 'finished';
  const mine = !finished && acting.includes(info.my_seat) && legal.length > 0;
  const clock = info.clock || {};
  const timed = acting.filter((seat) => clock.turn_ends_at && clock.turn_ends_at[String(seat)] !== undefined);
  const now = useNow(200, !finished && timed.length > 0);
  const name = namer(info);
  let text;
  if (finished) text = 'Game over';
  else if (mine) text = 'Your turn';
  else if (!acting.length) text = 'Waiting…';
  else {
    const who = acting.map((seat) => (seat === info.my_seat ? 'You' : name(seat)));
    const bot = acting.every((seat) => info.seats[seat]?.kind === 'bot' || info.seats[seat]?.away);
    const verb = acting.length > 1 ? 'are' : 'is';
    text = `${who.join(' and ')} ${verb} ${bot ? 'thinking…' : 'playing'}`;
  }
  const seat = mine ? info.my_seat : timed[0];
  const ends = seat !== undefined && clock.turn_ends_at ? clock.turn_ends_at[String(seat)] : undefined;
  const total = clock.turn_seconds || 30;
  const left = ends !== undefined ? Math.max(0, ends - serverNow(now)) : null;
  const hint = mine && module.turnHint ? module.turnHint(view, legal) : null;
  const secs = left === null ? null : Math.min(Math.round(total), Math.ceil(left));
  return html`<div class=${`turn-bar${mine ? ' turn-mine' : ''}${finished ? ' turn-over' : ''}`}>
    <div class="turn-row">
      <strong class="turn-who" aria-live="polite">${text}</strong>
      ${secs !== null && !finished && html`<div class="timer" role="timer"
          aria-label=${`${secs} seconds left for ${mine ? 'your' : `${name(seat)}'s`} turn`}>
        <span class=${`timer-text${left <= 5 ? ' timer-low' : ''}`}>${secs} s</span>
        <span class="timer-bar"><span class=${`timer-fill${left <= 5 ? ' timer-low' : ''}`}
          style=${`width:${Math.min(100, (100 * left) / total)}%`}></span></span>
      </div>`}
    </div>
    ${hint && html`<p class="turn-hint">${hint}</p>`}
    ${mine && secs !== null && left <= 5 && html`<p class="timer-warn">Hurry: a bot plays for you at zero.</p>`}
  </div>`;
}

/** platform.md, "Leaving": what leaving costs at this table, said before the player confirms. */
function leaveCost(info) {
  if (info.mode === 'bots') return 'This practice game ends at once and leaves your games in progress. Nothing is won or lost.';
  const lost = info.mode === 'staked' ? 'no XP and no league points' : info.mode === 'online'
    ? 'no coins, no XP and no league points' : 'no prize and no XP';
  const stake = info.mode === 'staked'
    ? ` Your stake of ${coins(info.stake)} stays in the pot of ${coins(info.pot)}, which is still shared by placing: if the bot playing your seat finishes first, your share is paid to you.`
    : '';
  return `A bot plays your seat to the end and the game counts as left: ${lost} for it.${stake} You cannot come back to this game.`;
}

/** Money in view on staked tables: what each player staked and what the winners share. */
function MoneyBar({ info }) {
  if (!info.stake) return null;
  return html`<p class="table-money" aria-label="Stake and pot">Stake <strong>${coins(info.stake)}</strong> each
    · Pot <strong class="table-pot">${coins(info.pot)}</strong> <span class="muted">(shared by first place)</span></p>`;
}

/** Who watches (docs/protocol.md, "Spectators"): the count comes with the table's info. */
function Watchers({ info, watching }) {
  const count = info.spectators || 0;
  if (!watching && !count) return null;
  const others = watching ? count - 1 : count;
  const text = others > 0 ? `${others} ${watching ? 'other ' : ''}${others === 1 ? 'person' : 'people'} watching` : '';
  return html`<p class="table-watchers muted">${watching && html`<strong>You are watching</strong>: you see what
    every spectator sees, no hands, and cannot play.${text ? ' ' : ''}`}${text}</p>`;
}

function LeaveGame({ info, id }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(null);
  const me = info.my_seat;
  if (me === null || me === undefined || info.status !== 'playing') return null;
  if ((info.resigned || []).includes(me)) {
    return html`<p class="banner banner-warning">You left this game: a bot plays your seat to the end.
      <a href="#/lobby">Back to the lobby</a></p>`;
  }
  const practice = info.mode === 'bots';
  const leave = async () => {
    setBusy(true);
    setError(null);
    try {
      await socket.resign(id);
      setConfirming(false);
      if (practice) {
        toast('Practice game ended.', 'info');
        go('/lobby');
      }
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  if (!confirming) {
    return html`<div class="row leave-row"><button type="button" class="btn btn-ghost btn-small"
      onClick=${() => setConfirming(true)}>${practice ? 'End this game' : 'Leave the game'}</button></div>`;
  }
  return html`<div class="confirm" role="group" aria-label="Confirm leaving the game">
    <p><strong>${practice ? 'End this practice game?' : 'Leave this game?'}</strong> ${leaveCost(info)}</p>
    <div class="row">
      <button type="button" class="btn btn-primary" onClick=${leave} disabled=${busy}>
        ${busy ? 'Please wait…' : practice ? 'Yes, end it' : 'Yes, leave'}</button>
      <button type="button" class="btn btn-ghost" onClick=${() => setConfirming(false)} disabled=${busy}>Stay</button>
    </div>
    <${ErrorNote} error=${error} />
  </div>`;
}

/** The game's log: the last few lines in view, the whole of it in a panel that opens (newest first in both). */
function GameLog({ log }) {
  const { lines, from } = log;
  const recent = lines.slice(-LOG_RECENT).reverse();
  return html`<section class="last-action game-log" aria-label="Game log">
    <ol class="log-recent" aria-live="polite" aria-relevant="additions">
      ${recent.length
        ? recent.map((line) => html`<li key=${line.version} class=${line.auto ? 'log-auto' : ''}>${line.text}</li>`)
        : html`<li class="muted">The game begins.</li>`}
    </ol>
    ${lines.length > LOG_RECENT && html`<details class="log-all">
      <summary>Whole log (${lines.length})</summary>
      <ol class="log-lines" reversed tabindex="0" aria-label="Every move so far, newest first">
        ${lines.slice().reverse().map((line) => html`<li key=${line.version}
          class=${line.auto ? 'log-auto' : ''}>${line.text}</li>`)}
      </ol>
      ${from > 1 && html`<p class="muted">Older moves are not kept.</p>`}
    </details>`}
  </section>`;
}

function GameOver({ info, module, id, username }) {
  const outcome = info.outcome;
  const button = useRef(null);
  useEffect(() => {
    button.current?.focus();
  }, []);
  if (!outcome) return null;
  const me = info.my_seat;
  const place = me !== null && me !== undefined ? outcome.placings[me] : null;
  const reward = info.rewards && me !== null ? info.rewards[String(me)] : null;
  // platform.md, "Leaving": a seat whose person left, or that a bot played most of, counts as left; its place is the
  // covering bot's, not the person's, so the box says what the results say (results.js).
  const left = Boolean(reward?.left);
  let headline = 'Game over';
  if (place && !left) headline = place === 1 ? 'You won!' : `You placed ${ordinal(place)}`;
  const order = outcome.placings.map((p, seat) => ({ p, seat })).sort((a, b) => a.p - b.p || a.seat - b.seat);
  return html`<section class="card game-over" aria-labelledby="over-title">
    <h2 id="over-title">${headline}</h2>
    <ol class="placings-mini">
      ${order.map(({ p, seat }) => html`<li key=${seat}><span class="place">${ordinal(p)}</span>
        ${seatName(info.seats[seat])}${seat === me ? ' (you)' : ''}
        ${outcome.scores && module.scoreLabel && html`<span class="muted"> · ${module.scoreLabel(outcome.scores[seat], { seats: info.seats.length })}</span>`}</li>`)}
    </ol>
    ${reward && html`<p>${signed(reward.net ?? (reward.coins || 0) + (reward.pot || 0))} coins · ${signed(reward.xp || 0)} XP${
      reward.rating?.change !== undefined ? ` · rating ${signed(reward.rating.change)}` : ''}</p>`}
    ${left && html`<p class="banner banner-warning">You left, or a bot played most of your turns, so this game counts
      as left: no prize and no XP.</p>`}
    ${me !== null && me !== undefined && username && html`<${RematchBox} tableId=${id} username=${username} />`}
    <div class="row">
      ${me !== null && me !== undefined
        ? html`<a class="btn btn-primary" href=${`#/results/${id}`} ref=${button}>See results</a>`
        : html`<a class="btn btn-primary" href=${`#/replay/${id}`} ref=${button}>Replay this game</a>`}
      <a class="btn" href="#/lobby">Back to the lobby</a>
    </div>
  </section>`;
}

/** #/watch/<id>: the same table as a spectator (the server decides: a seated person gets their seat). */
export function WatchScreen(props) {
  return html`<${TableScreen} ...${props} watching=${true} />`;
}

export function TableScreen({ params, me, watching = false }) {
  const id = params.id;
  const store = useStore();
  const [table, setTable] = useState(null); // {view, legal, info, version}
  const [log, setLog] = useState({ lines: [], from: 1 }); // from: the first version the log holds
  const [problem, setProblem] = useState(null); // joining failed
  const [error, setError] = useState(null); // the last move's refusal
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    return socket.watch(id, {
      onMessage(message) {
        const info = message.table_info;
        const module = gameModule(info.game);
        if (module && message.type === 'sync') {
          // A sync carries the whole log so far (we join with `history`): it replaces what we had.
          const first = message.events.length ? message.events[0].version : message.version + 1;
          setLog({ lines: logLines(module, message.events, info).slice(-LOG_KEEP), from: first });
        } else if (module && message.events.length) {
          const lines = logLines(module, message.events, info);
          if (lines.length) setLog((old) => ({ ...old, lines: [...old.lines, ...lines].slice(-LOG_KEEP) }));
        }
        setTable({ view: message.view, legal: message.legal, info, version: message.version });
        setProblem(null);
        if (message.events.some((event) => event.type === 'game_over')) refreshMe();
      },
      async onError(failure, during) {
        if (during === 'sent_off') {
          setTable(null);
          setProblem(`You are no longer watching this table. ${failure.message}`);
          return;
        }
        if (during !== 'join') {
          setError(failure);
          return;
        }
        if (failure.code === 'no_such_table') {
          // A finished table stays a few minutes; after that its record holds the results (and its replay).
          try {
            await get(watching ? `/api/games/${id}/replay?limit=1` : `/api/games/${id}`);
            go(watching ? `/replay/${id}` : `/results/${id}`);
            return;
          } catch {
            setProblem('This table is not running any more.');
            return;
          }
        }
        setProblem(failure.code === 'not_seated' ? 'You have no seat at this table.' : failure.message);
      },
    });
  }, [id]);

  const send = useCallback(async (action) => {
    const quiet = action.type === 'reorder'; // housekeeping: never blocks the move buttons
    if (!quiet) setBusy(true);
    setError(null);
    try {
      await socket.act(id, action);
      return true;
    } catch (failure) {
      setError(failure);
      return false;
    } finally {
      if (!quiet) setBusy(false);
    }
  }, [id]);

  const serverNow = useCallback((local = Date.now() / 1000) => local + socket.serverSkew, []);
  const module = table && gameModule(table.info.game);
  const myTurn = Boolean(table && table.info.status === 'playing' && table.legal.length > 0
    && (table.view.to_act || []).includes(table.info.my_seat));
  useTableSignals({ id, mine: myTurn, finished: table?.info.status === 'finished', title: module?.title || 'Table',
    hint: myTurn && module?.turnHint ? module.turnHint(table.view, table.legal) : null });

  if (!table) {
    return html`<${Page} title=${watching ? 'Watching a table' : 'Table'}>
      ${problem
        ? html`<p class="banner banner-warning" role="alert">${problem}</p><p><a href="#/lobby">Back to the lobby</a></p>`
        : html`<${Loading} what=${watching ? 'Joining as a spectator' : 'Taking your seat'} />`}
    <//>`;
  }
  const { view, legal, info } = table;
  if (!module) {
    return html`<${Page} title="Table"><p>This game cannot be shown in the browser yet.
      <a href="#/lobby">Back to the lobby</a></p><//>`;
  }
  const finished = info.status === 'finished';
  const offline = store.connection !== 'open';
  const Game = module.Table;
  const spectator = info.my_seat === null || info.my_seat === undefined;
  const help = html`<${HelpButton} game=${info.game} view=${view} class="btn btn-small">
    <span class="help-mark" aria-hidden="true">?</span><span class="help-words"> How to play</span><//>`;
  return html`<${Page} title=${spectator ? `Watching ${module.title}` : module.title}
      subtitle=${MODE_NAMES[info.mode] || info.mode} wide compact actions=${help}>
    <div class=${`table-shell table-${info.game}`} data-version=${table.version}
        data-busy=${busy ? 'true' : 'false'}>
      <${MoneyBar} info=${info} />
      <${Watchers} info=${info} watching=${spectator} />
      <${TurnBar} info=${info} view=${view} legal=${legal} serverNow=${serverNow} module=${module} />
      <${SeatStrip} info=${info} view=${view} module=${module} acting=${finished ? [] : view.to_act || []} />
      <${GameLog} log=${log} />
      <${LeaveGame} info=${info} id=${id} />
      <${TablePrefs} />
      ${finished && html`<${GameOver} info=${info} module=${module} id=${id} username=${me?.username} />`}
      ${info.status === 'cancelled' && html`<section class="card game-over" aria-label="Game ended">
        <h2>This game has ended</h2><p>Nothing more is played at this table (the log above says why).</p>
        <div class="row"><a class="btn btn-primary" href="#/lobby">Back to the lobby</a></div></section>`}
      <${Game} view=${view} legal=${finished ? [] : legal} send=${send} busy=${busy || offline} error=${error}
        info=${info} me=${info.my_seat} name=${namer(info)} serverNow=${serverNow} over=${finished} />
    </div>
  <//>`;
}

