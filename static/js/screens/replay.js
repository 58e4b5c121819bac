// The replay viewer (#/replay/<id>): a finished game step by step, rebuilt by the server from its seed and log
// (GET /api/games/{id}/replay, paged). As I saw it (my seat, or a spectator's view of a game I did not play), or with
// every hand shown (`reveal`: the board shows the hand of the seat picked). First / previous / next / last, the
// arrow keys, Home and End; the log under the board is what happened at this step.
import { get } from '../api.js';
import { gameModule } from '../games/index.js';
import { html, useCallback, useEffect, useRef, useState } from '../lib.js';
import { applyPatch } from '../patch.js';
import { ErrorNote, Loading, MODE_NAMES, ordinal, Page, when } from '../ui.js';
import { describe, namer, SeatStrip, seatName } from './table.js';

const PAGE = 50; // steps per request (the server's most)
const NOTHING = () => Promise.resolve(false); // a replay takes no moves

/** A page's frames each with its whole view: the first comes whole, the others as a patch on the one before. */
function wholeViews(frames) {
  let view = null;
  return frames.map((frame) => {
    view = frame.view !== undefined ? frame.view : applyPatch(view, frame.patch);
    return { ...frame, view };
  });
}

function tableInfo(meta, frame, seat) {
  return {
    id: meta.id, game: meta.game, mode: meta.mode, status: frame.outcome ? 'finished' : 'playing',
    seats: meta.seats.map((s, index) => ({ seat: index, name: s.name, kind: s.kind, bot_level: s.bot_level,
      connected: true, away: false })),
    my_seat: seat, clock: {}, outcome: frame.outcome, rewards: null, resigned: [],
  };
}

/** The lines of one step: the events as the viewer saw them (with `reveal`, as the seat picked saw them). */
function stepLines(module, frame, info, seat, reveal) {
  return frame.events.map((event) => {
    const shown = reveal && event.private ? { ...event, ...(event.private[String(seat)] || {}) } : event;
    return describe(module, shown, info)?.text;
  }).filter(Boolean);
}

export function ReplayScreen({ params }) {
  const id = params.id;
  const [reveal, setReveal] = useState(params.reveal === '1');
  const [pages, setPages] = useState({}); // `${reveal}:${page number}` -> frames
  const [meta, setMeta] = useState(null); // the replay's header: game, seats, my seat, steps
  const [step, setStep] = useState(0);
  const [shownSeat, setShownSeat] = useState(0); // reveal: whose hand the board shows
  const [error, setError] = useState(null);
  const loading = useRef(new Set());

  const load = useCallback(async (page) => {
    const key = `${reveal}:${page}`;
    if (loading.current.has(key)) return;
    loading.current.add(key);
    try {
      const data = await get(`/api/games/${id}/replay?start=${page * PAGE}&limit=${PAGE}&reveal=${reveal}`);
      setMeta((old) => {
        if (!old && data.seat !== null && data.seat !== undefined) setShownSeat(data.seat);
        return data;
      });
      setPages((old) => ({ ...old, [key]: wholeViews(data.frames) }));
      setError(null);
    } catch (failure) {
      setError(failure);
    } finally {
      loading.current.delete(key);
    }
  }, [id, reveal]);

  const page = Math.floor(step / PAGE);
  const frames = pages[`${reveal}:${page}`];
  useEffect(() => {
    if (!frames) load(page);
  }, [page, reveal, Boolean(frames)]);

  const last = meta ? meta.steps - 1 : 0;
  const goTo = (target) => setStep(Math.max(0, Math.min(last, target)));
  useEffect(() => {
    const moves = { ArrowLeft: (at) => at - 1, ArrowRight: (at) => at + 1, Home: () => 0, End: () => last };
    const keys = (event) => {
      if (event.target.closest && event.target.closest('input, select, textarea')) return;
      if (!(event.key in moves) || event.altKey || event.ctrlKey || event.metaKey) return;
      event.preventDefault();
      // From the step shown now: a key pressed right after a click can come before this listener is made anew.
      setStep((at) => Math.max(0, Math.min(last, moves[event.key](at))));
    };
    window.addEventListener('keydown', keys);
    return () => window.removeEventListener('keydown', keys);
  }, [last]);

  const module = meta ? gameModule(meta.game) : null;
  const frame = frames?.[step % PAGE] || null;
  if (!meta) {
    return html`<${Page} title="Replay">
      ${error ? html`<${ErrorNote} error=${error} /><p><a href="#/games">My past games</a></p>`
        : html`<${Loading} what="Replaying the game" />`}
    <//>`;
  }
  if (!module) {
    return html`<${Page} title="Replay"><p>This game cannot be shown in the browser yet.</p><//>`;
  }
  const control = (label, text, target, disabled) => html`<button type="button" class="btn btn-small"
      aria-label=${label} title=${label} disabled=${disabled} onClick=${() => goTo(target)}>${text}</button>`;
  const subtitle = `${MODE_NAMES[meta.mode] || meta.mode} · ${when(meta.finished_at)}`
    + (meta.seat === null || meta.seat === undefined ? ' · as a spectator saw it' : '');
  return html`<${Page} title=${`Replay: ${meta.title}`} subtitle=${subtitle} wide compact>
    <section class="card replay-controls" aria-label="Replay controls">
      <div class="row">
        ${control('First step', '« First', 0, step === 0)}
        ${control('Previous step', '◀ Prev', step - 1, step === 0)}
        <span class="replay-step" aria-live="polite">Step <strong>${step}</strong> of ${last}</span>
        ${control('Next step', 'Next ▶', step + 1, step === last)}
        ${control('Last step', 'Last »', last, step === last)}
      </div>
      <label class="replay-slider">Step
        <input type="range" min="0" max=${last} value=${step} onInput=${(e) => goTo(Number(e.target.value))} />
      </label>
      <div class="row">
        <label class="check"><input type="checkbox" checked=${reveal}
          onChange=${(e) => setReveal(e.target.checked)} /> Show every hand</label>
        ${reveal && html`<label>Hand on the board
          <select value=${shownSeat} onChange=${(e) => setShownSeat(Number(e.target.value))}>
            ${meta.seats.map((s, index) => html`<option key=${index} value=${index}>${seatName({ ...s })}${index === meta.seat ? ' (you)' : ''}</option>`)}
          </select></label>`}
        <span class="muted">Keys: ← → step, Home and End.</span>
      </div>
    </section>
    ${frame ? html`<${Step} meta=${meta} frame=${frame} module=${module} step=${step} reveal=${reveal}
        viewer=${reveal ? shownSeat : meta.seat} />`
      : error ? html`<${ErrorNote} error=${error} />` : html`<${Loading} what="Replaying the game" />`}
  <//>`;
}

/** One step: what happened (its log) and the board after it. */
function Step({ meta, frame, module, step, reveal, viewer }) {
  const view = reveal ? { ...frame.view.public, ...frame.view.seats[viewer] } : frame.view;
  const info = tableInfo(meta, frame, viewer);
  const lines = stepLines(module, frame, info, viewer, reveal);
  const Game = module.Table;
  return html`
    <section class="card replay-log" aria-label="This step">
      <p>${step === 0 ? 'The game begins.' : lines.length ? '' : 'Nothing you could see happened at this step.'}</p>
      ${lines.length > 0 && html`<ul class="replay-lines">${lines.map((line, index) => html`<li key=${index}>${line}</li>`)}</ul>`}
      ${frame.outcome && html`<p><strong>Game over.</strong> ${frame.outcome.placings.map((place, seat) =>
        `${seatName(info.seats[seat])}: ${ordinal(place)}`).join(' · ')}</p>`}
    </section>
    <div class=${`table-shell table-${meta.game} replay-board`} data-step=${step}>
      <${SeatStrip} info=${info} view=${view} module=${module} acting=${frame.outcome ? [] : view.to_act || []}
        presence=${false} />
      <${Game} view=${view} legal=${[]} send=${NOTHING} busy=${true} error=${null} info=${info} me=${viewer}
        name=${namer(info)} serverNow=${() => Date.now() / 1000} over=${Boolean(frame.outcome)} />
    </div>`;
}
