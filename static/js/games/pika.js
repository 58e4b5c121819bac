// The Pika table (rules: shared/rules/pika.md; view, actions and events: app/games/pika/game.py).
// It implements the game-module interface of docs/client.md: title, options, Table, describe, seatInfo,
// turnHint, scoreLabel.
import { html, useEffect, useLayoutEffect, useRef, useState } from '../lib.js';
import { flyFrom, useFlip, useOnChange } from '../motion.js';
import { playSound } from '../sound.js';
import { ErrorNote, useNow } from '../ui.js';

export const COLOURS = ['red', 'yellow', 'green', 'blue'];
const RANKS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'skip', 'reverse', '+2', 'joker', '+4'];
const RANK_WORDS = { skip: 'Skip', reverse: 'Reverse', '+2': '+2', joker: 'Joker', '+4': '+4' };
const DRAG_THRESHOLD_PX = 6;

export function parseCard(name) {
  if (name === 'joker' || name === '+4') return { colour: null, rank: name };
  const cut = name.indexOf('-');
  return { colour: name.slice(0, cut), rank: name.slice(cut + 1) };
}

export function cardLabel(name) {
  const { colour, rank } = parseCard(name);
  if (!colour) return rank === '+4' ? 'wild +4' : 'Joker';
  return `${colour} ${RANK_WORDS[rank] || rank}`;
}

const capital = (word) => word.charAt(0).toUpperCase() + word.slice(1);
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

// ---------------------------------------------------------------------------------------------------- drawing

function Symbol({ rank }) {
  if (rank === 'skip') {
    return html`<svg viewBox="0 0 24 24" class="sym-svg" aria-hidden="true"><circle cx="12" cy="12" r="8.5"
      fill="none" stroke="currentColor" stroke-width="3"/><line x1="6" y1="18" x2="18" y2="6" stroke="currentColor"
      stroke-width="3"/></svg>`;
  }
  if (rank === 'reverse') {
    return html`<svg viewBox="0 0 24 24" class="sym-svg" aria-hidden="true"><path d="M4 9h13l-4-4M20 15H7l4 4"
      fill="none" stroke="currentColor" stroke-width="2.8" stroke-linecap="round" stroke-linejoin="round"/></svg>`;
  }
  if (rank === 'joker') {
    return html`<svg viewBox="0 0 24 24" class="sym-svg sym-wild" aria-hidden="true">
      <path d="M12 12V3a9 9 0 0 1 9 9z" fill="#c62828"/><path d="M12 12h9a9 9 0 0 1-9 9z" fill="#1565c0"/>
      <path d="M12 12v9a9 9 0 0 1-9-9z" fill="#2e7d32"/><path d="M12 12H3a9 9 0 0 1 9-9z" fill="#f9a825"/></svg>`;
  }
  return html`<span class="sym-text">${rank}</span>`;
}

/** A card face. Colour is never the only clue: the colour's name is printed on every coloured card. */
export function Card({ name, size = 'md', ring }) {
  const { colour, rank } = parseCard(name);
  const corner = rank === 'joker' ? 'W' : rank === 'skip' || rank === 'reverse' ? null : rank;
  return html`<span class=${`pcard pcard-${colour || 'black'} pcard-${size}${ring ? ` ring-${ring}` : ''}`}>
    <span class="pcard-corner">${corner ?? html`<${Symbol} rank=${rank} />`}</span>
    <span class="pcard-oval"><span class="pcard-symbol"><${Symbol} rank=${rank} /></span></span>
    <span class="pcard-word">${colour || (rank === '+4' ? 'wild +4' : 'wild')}</span>
  </span>`;
}

function CardBack({ size = 'md' }) {
  return html`<span class=${`pcard pcard-back pcard-${size}`}><span class="pcard-back-logo">Pika</span></span>`;
}

// ---------------------------------------------------------------------------------------------------- hand order

function sortKey(name, byNumber) {
  const { colour, rank } = parseCard(name);
  const c = colour ? COLOURS.indexOf(colour) : 4;
  const r = RANKS.indexOf(rank);
  return byNumber ? r * 10 + c : c * 100 + r;
}

function sameCards(a, b) {
  if (!a || !b || a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((card, i) => card === y[i]);
}

function moved(list, from, to) {
  const out = list.slice();
  const [card] = out.splice(from, 1);
  out.splice(to, 0, card);
  return out;
}

/** Keys for identical cards: "red-7#0", "red-7#1", so reordering keeps each element. */
function keyed(hand) {
  const seen = {};
  return hand.map((name) => {
    seen[name] = (seen[name] || 0) + 1;
    return `${name}#${seen[name] - 1}`;
  });
}

// ---------------------------------------------------------------------------------------------------- the hand

/**
 * My hand: one row that overlaps its cards as it grows (the overlap is worked out in CSS from the card count `--n`
 * and the row's width), so its height stays the same; on a phone a long hand wraps to a second row. Cards are
 * reordered by dragging (mouse or touch) or with Shift and an arrow key, and glide to their new places.
 */
function Hand({ cards, playable, highlight, onPlay, onReorder, disabled, fixed, listRef }) {
  const list = listRef;
  const drag = useRef(null);
  const dropped = useRef(null); // where the dropped card was last seen, so it glides on from under the pointer
  const suppressClickUntil = useRef(0);
  const [dragging, setDragging] = useState(null); // {from, to, dx, dy}
  const keys = keyed(cards);
  useFlip(list, { selector: '[data-key]', attribute: 'data-key', paused: Boolean(dragging), from: dropped });

  // The card under the pointer, from where the cards were when the drag began (the dragged card itself is drawn
  // under the pointer by a transform, so it must not count). Later cards overlap earlier ones: they are tried first.
  const indexAt = (d, x, y) => {
    let best = d.index;
    let bestDistance = Infinity;
    for (let i = d.rects.length - 1; i >= 0; i -= 1) {
      const box = d.rects[i];
      if (x >= box.left && x <= box.right && y >= box.top && y <= box.bottom) return i;
      const distance = Math.hypot(x - (box.left + box.width / 2), y - (box.top + box.height / 2));
      if (distance < bestDistance) {
        bestDistance = distance;
        best = i;
      }
    }
    return best;
  };

  const down = (event, index) => {
    if (event.button !== 0 || cards.length < 2 || fixed) return;
    drag.current = { index, x: event.clientX, y: event.clientY, pointer: event.pointerId, active: false,
      element: event.currentTarget, to: index, rects: null };
  };
  const move = (event) => {
    const d = drag.current;
    if (!d || event.pointerId !== d.pointer) return;
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    if (!d.active) {
      if (Math.hypot(dx, dy) < DRAG_THRESHOLD_PX) return;
      d.active = true;
      d.rects = [...list.current.querySelectorAll('[data-index]')].map((item) => item.getBoundingClientRect());
      d.element.setPointerCapture?.(d.pointer);
    }
    d.to = indexAt(d, event.clientX, event.clientY);
    d.dx = dx;
    d.dy = dy;
    setDragging({ from: d.index, to: d.to, dx, dy });
  };
  const up = (event) => {
    const d = drag.current;
    drag.current = null;
    if (!d || event.pointerId !== d.pointer) return;
    if (!d.active) return;
    suppressClickUntil.current = Date.now() + 300;
    setDragging(null);
    if (d.to !== d.index) {
      const item = list.current.querySelector(`[data-index="${d.index}"]`);
      if (item) dropped.current = { key: keys[d.index], x: item.offsetLeft + d.dx, y: item.offsetTop + d.dy };
      onReorder(moved(cards, d.index, d.to));
    }
  };
  const cancel = () => {
    drag.current = null;
    setDragging(null);
  };
  const click = (name, event) => {
    if (disabled || Date.now() < suppressClickUntil.current) return;
    onPlay(name, event.currentTarget.getBoundingClientRect());
  };
  // The keyboard's drag and drop: every card takes the focus; the arrow keys go from card to card, and with Shift
  // they carry the focused card one place left or right (the focus follows it).
  // The focus moves once the hand shows the new order (another render, e.g. the move going out, may come first).
  const refocus = useRef(null);
  useLayoutEffect(() => {
    if (refocus.current === null || cards.join(' ') !== refocus.current.order) return;
    list.current?.querySelector(`[data-index="${refocus.current.index}"] [data-card-focus]`)?.focus();
    refocus.current = null;
  });
  const keyDown = (event, index) => {
    const step = event.key === 'ArrowLeft' ? -1 : event.key === 'ArrowRight' ? 1 : 0;
    if (!step || event.altKey || event.ctrlKey || event.metaKey) return;
    const to = index + step;
    if (to < 0 || to >= cards.length) return;
    event.preventDefault();
    if (event.shiftKey) {
      if (fixed) return;
      const order = moved(cards, index, to);
      refocus.current = { index: to, order: order.join(' ') };
      onReorder(order);
    } else {
      refocus.current = null; // a reorder the server refused leaves nothing pending
      list.current?.querySelector(`[data-index="${to}"] [data-card-focus]`)?.focus();
    }
  };

  return html`<ul class=${`hand${fixed ? ' fixed' : ''}`} ref=${list} tabindex="-1" style=${`--n:${Math.max(2, cards.length)}`}
      aria-label=${`Your hand, ${plural(cards.length, 'card')}`} aria-describedby=${fixed ? undefined : 'hand-keys'}>
    ${cards.map((name, index) => {
      const canPlay = playable.has(name); // stays a button while a move is in flight, so the focus stays too
      let cls = 'hand-card';
      if (canPlay) cls += ' playable';
      if (highlight === index) cls += ' drawn';
      let style = '';
      if (dragging && dragging.from === index) {
        cls += ' dragging';
        style = `transform: translate(${dragging.dx}px, ${dragging.dy}px)`;
      } else if (dragging && dragging.to === index) {
        cls += dragging.to > dragging.from ? ' drop-after' : ' drop-before';
      }
      const handlers = {
        onPointerDown: (e) => down(e, index),
        onPointerMove: move,
        onPointerUp: up,
        onPointerCancel: cancel,
        onDragStart: (e) => e.preventDefault(),
        onKeyDown: (e) => keyDown(e, index),
      };
      return html`<li key=${keys[index]} class=${cls} style=${style} data-index=${index} data-card=${name} data-key=${keys[index]}>
        ${canPlay
          ? html`<button type="button" class="card-button" aria-label=${`Play ${cardLabel(name)}`} data-card-focus
              aria-disabled=${disabled ? 'true' : undefined}
              onClick=${(e) => click(name, e)} ...${handlers}><${Card} name=${name} /></button>`
          : html`<span class="card-still" role="img" aria-label=${cardLabel(name)} tabindex="0" data-card-focus
              ...${handlers}>
              <${Card} name=${name} /></span>`}
      </li>`;
    })}
  </ul>`;
}

// ---------------------------------------------------------------------------------------------------- pickers

function ColourPicker({ card, colours, onPick, onCancel }) {
  const first = useRef(null);
  useLayoutEffect(() => {
    first.current?.focus({ preventScroll: true });
  }, [card]);
  const keys = (event) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    }
  };
  // Drawn over the piles, not inserted above the hand: the hand stays where the pointer is.
  return html`<div class="picker" role="dialog" aria-modal="false" aria-labelledby="picker-title" onKeyDown=${keys}>
    <p id="picker-title"><strong>Choose the colour</strong> for your ${cardLabel(card)}:</p>
    <div class="picker-colours">
      ${colours.map((colour, i) => html`<button type="button" key=${colour} class=${`btn colour-btn colour-${colour}`}
          ref=${i === 0 ? first : null} onClick=${() => onPick(colour)}>
        ${capital(colour)}</button>`)}
    </div>
    <button type="button" class="btn btn-ghost btn-small" onClick=${onCancel}>Cancel</button>
  </div>`;
}

function AlertCountdown({ endsAt, serverNow, total }) {
  const now = useNow(100, true);
  const left = Math.max(0, endsAt - serverNow(now));
  return html`<span class="alert-count"><span class="alert-bar"><span class="alert-fill"
    style=${`width:${Math.min(100, (100 * left) / total)}%`}></span></span>${left.toFixed(1)} s</span>`;
}

// ---------------------------------------------------------------------------------------------------- motion

/**
 * Cards travel: a card played flies to the discard from my hand (where I clicked it) or from the seat that played
 * it; cards I draw or take fly from the draw pile into my hand. Sounds go with them: a card, a stack landing on me.
 */
function useTableMotion({ view, me, root, pile, discard, hand, launch, stackOnMe }) {
  const before = useRef(view);
  const beforeKeys = useRef(keyed(view.hand || []));
  useLayoutEffect(() => {
    const old = before.current;
    const oldKeys = beforeKeys.current;
    before.current = view;
    const keys = keyed(view.hand || []);
    beforeKeys.current = keys;
    if (old === view) return;
    const played = view.discard_size > old.discard_size || (view.discard_top !== old.discard_top && view.discard_size >= old.discard_size);
    if (played) {
      const mine = launch.current && launch.current.card === view.discard_top;
      let from = mine ? launch.current.rect : null;
      if (!from && old.turn !== null && old.turn !== undefined && old.turn !== me) {
        from = root.current?.ownerDocument.querySelector(`.seat-strip [data-seat="${old.turn}"]`)?.getBoundingClientRect();
      }
      flyFrom(discard.current, from);
      if (stackOnMe && view.stack && (!old.stack || old.stack.amount < view.stack.amount)) playSound('stack');
      else playSound('card');
    }
    launch.current = null;
    // My new cards (drawn, taken from a stack, a penalty): from the pile into the hand, one after another.
    const fresh = keys.filter((key) => !oldKeys.includes(key));
    if (fresh.length && fresh.length < keys.length && pile.current && hand.current) {
      const from = pile.current.getBoundingClientRect();
      fresh.forEach((key, i) => {
        const item = hand.current.querySelector(`[data-key="${CSS.escape(key)}"]`);
        flyFrom(item, from, { duration: 420 + 90 * i, id: 'card-drawn' });
      });
      if (!played) playSound('card');
    }
  });
}

// ---------------------------------------------------------------------------------------------------- the table

function PikaTable({ view, legal, send, busy, error, info, me, name, serverNow, over }) {
  const [picking, setPicking] = useState(null); // a black card waiting for its colour
  const [callWithPlay, setCallWithPlay] = useState(false);
  const [order, setOrder] = useState(null); // my new order, until the server's view shows it
  const root = useRef(null);
  const pileRef = useRef(null);
  const discardRef = useRef(null);
  const handRef = useRef(null);
  const launch = useRef(null); // {card, rect}: the card I just played, where it was
  const acted = useRef(false); // a move of mine removed the focused button: put the focus back in the hand
  const seated = me !== null && me !== undefined; // a spectator has no hand (docs/protocol.md, "Spectators")
  const serverHand = view.hand || [];
  const hand = order && sameCards(order, serverHand) ? order : serverHand;

  useEffect(() => {
    if (order && (!sameCards(order, serverHand) || order.every((card, i) => card === serverHand[i]))) setOrder(null);
  }, [serverHand.join(',')]);

  const plays = legal.filter((a) => a.type === 'play');
  const playable = new Set(plays.map((a) => a.card));
  const canCallWithPlay = plays.some((a) => a.pika);
  const can = (type) => legal.find((a) => a.type === type);
  const myTurn = legal.length > 0 && (view.to_act || []).includes(me);
  const alertMine = (view.alerts || []).find((a) => a.seat === me);
  const deadlines = (info.clock && info.clock.deadlines) || [];
  const myDeadline = deadlines.find((d) => d.seat === me);
  const pikaAction = can('pika');
  const take = can('take_stack');
  useTableMotion({ view, me, root, pile: pileRef, discard: discardRef, hand: handRef, launch, stackOnMe: Boolean(take) });

  useEffect(() => {
    if (!canCallWithPlay) setCallWithPlay(false);
  }, [canCallWithPlay]);
  useEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (!acted.current || !lost || !root.current) return;
    acted.current = false;
    const next = root.current.querySelector('.card-button, .pile-button:not([disabled]), .hand');
    next?.focus({ preventScroll: true });
  });
  const act = (action) => {
    acted.current = true;
    return send(action);
  };
  useEffect(() => {
    if (picking && !playable.has(picking.card)) setPicking(null);
  }, [legal]);

  const playAction = (card, colour) => {
    const wanted = callWithPlay && canCallWithPlay;
    const options = plays.filter((a) => a.card === card && (colour === undefined || a.colour === colour));
    return options.find((a) => Boolean(a.pika) === wanted) || options.find((a) => !a.pika) || options[0];
  };
  const play = (card, rect) => {
    if (busy) return;
    if (parseCard(card).colour === null) {
      setPicking({ card, rect });
      return;
    }
    const action = playAction(card);
    if (!action) return;
    launch.current = { card, rect };
    act(action);
  };
  const pick = (colour) => {
    const action = playAction(picking.card, colour);
    launch.current = { card: picking.card, rect: picking.rect };
    setPicking(null);
    if (action) act(action);
  };
  const playDrawn = () => {
    const item = handRef.current?.querySelector(`[data-index="${drawnIndex}"]`);
    play(view.drawn_card, item?.getBoundingClientRect());
  };
  const reorder = async (newOrder) => {
    setOrder(newOrder);
    const kept = await send({ type: 'reorder', hand: newOrder });
    if (!kept) setOrder(null);
  };
  const sortBy = (byNumber) => {
    const sorted = hand.slice().sort((a, b) => sortKey(a, byNumber) - sortKey(b, byNumber));
    if (sorted.some((card, i) => card !== hand[i])) reorder(sorted);
  };

  const drawnIndex = view.drawn_card ? hand.lastIndexOf(view.drawn_card) : -1;
  const top = view.discard_top;
  const topIsBlack = parseCard(top).colour === null;
  const stack = view.stack;
  const draw = can('draw');
  const keep = can('keep');
  const pickColours = picking ? COLOURS.filter((c) => plays.some((a) => a.card === picking.card && a.colour === c)) : [];
  const othersAlerts = (view.alerts || []).filter((a) => a.seat !== me);

  // What asks for an answer now goes in one place of fixed height between the piles and the hand, so neither moves.
  const prompts = [];
  if (alertMine && pikaAction) {
    prompts.push(html`<div class="pika-alert" role="alert" key="alert">
      <button type="button" class="btn pika-button" onClick=${() => act(pikaAction)}>Pika!</button>
      <span>One card left: call Pika before the time runs out, or draw 2.
        ${myDeadline && html`<${AlertCountdown} endsAt=${myDeadline.ends_at} serverNow=${serverNow}
          total=${view.alert_seconds || 3} />`}</span>
    </div>`);
  }
  if (stack) {
    prompts.push(html`<div class=${`stack-note${take ? ' stack-mine' : ''}`} key="stack">
      ${take
        ? html`<p>A stack of <strong>+${stack.amount}</strong> is on you: play ${stack.may_chain}, or take the cards.</p>
            <button type="button" class="btn btn-danger" onClick=${() => act(take)} disabled=${busy}>
              Take ${plural(stack.amount, 'card')}</button>`
        : html`<p>A stack of <strong>+${stack.amount}</strong> is pending: the next player chains ${stack.may_chain} or takes it.</p>`}
    </div>`);
  }
  if (keep && view.drawn_card) {
    prompts.push(html`<div class="drawn-note" key="drawn">
      <p>You drew <strong>${cardLabel(view.drawn_card)}</strong>. It can be played now.</p>
      <div class="row">
        <button type="button" class="btn btn-felt" onClick=${playDrawn} disabled=${busy}>Play it</button>
        <button type="button" class="btn" onClick=${() => act(keep)} disabled=${busy}>Keep it</button>
      </div>
    </div>`);
  }
  if (canCallWithPlay) {
    prompts.push(html`<label class="call-toggle" key="call">
      <input type="checkbox" checked=${callWithPlay} onChange=${(e) => setCallWithPlay(e.currentTarget.checked)} />
      Call “Pika!” with my play (I will have one card left)</label>`);
  }
  if (!prompts.length) {
    othersAlerts.forEach((a) => prompts.push(html`<p class="note note-alert" key=${`alert-${a.seat}`}>${name(a.seat)} is down
      to one card and must call Pika.</p>`));
  }

  return html`<div class="pika" ref=${root}>
    <div class="pika-centre" aria-label="The table">
      <div class="pile" ref=${pileRef}>
        ${draw
          ? html`<button type="button" class="pile-button" onClick=${() => act(draw)} disabled=${busy}
              aria-label=${`Draw a card (${plural(view.draw_pile, 'card')} in the pile)`}>
              <${CardBack} size="lg" /><span class="pile-action">Draw</span></button>`
          : html`<span class="pile-still"><${CardBack} size="lg" /></span>`}
        <span class="pile-count">${plural(view.draw_pile, 'card')} to draw</span>
      </div>
      <div class="discard">
        <span class="discard-card" role="img" ref=${discardRef}
          aria-label=${`Top of the discard: ${cardLabel(top)}${topIsBlack ? `, ${view.colour} chosen` : ''}`}>
          <${Card} name=${top} size="lg" ring=${topIsBlack ? view.colour : null} /></span>
        <span class="pile-count">discard</span>
      </div>
      <div class="pika-state">
        <p class=${`in-play in-play-${view.colour}`}>Colour: <strong>${capital(view.colour)}</strong></p>
        <p class="direction">
          <svg viewBox="0 0 24 24" class=${`dir-arrow${view.direction === 'clockwise' ? '' : ' dir-ccw'}`} aria-hidden="true">
            <path d="M20 12a8 8 0 1 1-2.4-5.7" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round"/>
            <path d="M18.5 2.5v4.5H14" fill="none" stroke="currentColor" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/></svg>
          ${view.direction === 'clockwise' ? 'Clockwise' : 'Counterclockwise'}</p>
        ${stack && html`<p class="stack-badge"><strong>+${stack.amount}</strong> pending</p>`}
      </div>
    </div>

    <div class="pika-prompt">${prompts}</div>

    ${seated && html`<div class="hand-area">
      <div class="hand-head">
        <h2>Your hand <span class="count">${hand.length}</span></h2>
        ${hand.length > 1 && !over && html`<div class="sort" role="group" aria-label="Arrange your hand">
          <span class="sort-label" aria-hidden="true">Sort:</span>
          <button type="button" class="btn btn-ghost btn-small" aria-label="Sort by colour"
            onClick=${() => sortBy(false)}>Colour</button>
          <button type="button" class="btn btn-ghost btn-small" aria-label="Sort by number"
            onClick=${() => sortBy(true)}>Number</button>
        </div>`}
      </div>
      <${Hand} cards=${hand} playable=${myTurn ? playable : new Set()} highlight=${drawnIndex} onPlay=${play}
        onReorder=${reorder} disabled=${busy} fixed=${over} listRef=${handRef} />
      ${!over && html`<p class="hand-help muted">${myTurn && playable.size
        ? 'Raised cards can be played. Drag cards to arrange your hand.'
        : 'Drag cards to arrange your hand; the order is kept for you.'}
        <span id="hand-keys" class="keys-hint"> Keyboard: the arrow keys go from card to card; Shift with an arrow moves the card.</span></p>`}
      <${ErrorNote} error=${error} />
    </div>`}
    ${picking && html`<${ColourPicker} card=${picking.card} colours=${pickColours} onPick=${pick}
      onCancel=${() => setPicking(null)} />`}
  </div>`;
}

// ---------------------------------------------------------------------------------------------------- the module

function describe(event, { name, me }) {
  const who = name(event.seat);
  switch (event.type) {
    case 'play': {
      let text = `${who} played ${cardLabel(event.card)}`;
      if (parseCard(event.card).colour === null) text += ` and chose ${event.colour}`;
      if (event.pika) text += ', calling “Pika!”';
      if (event.stack) text += ` (stack: +${event.stack})`;
      if (event.skipped !== undefined) text += `; ${event.skipped === me ? 'you are' : `${name(event.skipped)} is`} skipped`;
      if (event.direction) text += `; play now goes ${event.direction}`;
      return `${text}.`;
    }
    case 'draw':
      if (event.count === 0) return `${who} had nothing to draw.`;
      return event.card ? `${who} drew ${cardLabel(event.card)}.` : `${who} drew a card.`;
    case 'keep':
      return `${who} kept the drawn card.`;
    case 'take_stack':
      return `${who} took the stack: ${plural(event.count, 'card')}.`;
    case 'pika_alert':
      return event.seat === me ? 'You have one card left: call Pika!' : `${who} is down to one card.`;
    case 'pika':
      return `${who} called “Pika!”`;
    case 'penalty':
      return `${who} did not call Pika in time and drew ${plural(event.count, 'card')}.`;
    case 'reshuffle':
      return 'The discard pile was shuffled into a new draw pile.';
    case 'game_end': {
      if (event.reason === 'stalemate') return 'Nobody could draw or play: the round ends, fewest cards first.';
      const out = (event.placings || []).map((place, seat) => (place === 1 ? name(seat) : null)).filter(Boolean);
      if (!out.length) return 'The round is over.';
      return event.reason === 'stack_taken'
        ? `The stack was taken, so the round is over. First place: ${out.join(' and ')}.`
        : `${out.join(' and ')} went out: the round is over.`;
    }
    case 'hand_reordered':
      return null;
    default:
      return null;
  }
}

function seatInfo(view, seat) {
  const count = view.hand_counts ? view.hand_counts[seat] : 0;
  const alerted = (view.alerts || []).some((a) => a.seat === seat);
  const called = (view.called_pika || []).includes(seat);
  return html`<span class="seat-cards"><span class="mini-back" aria-hidden="true"></span>${plural(count, 'card')}</span>
    ${called && html`<span class="tag tag-pika">Pika!</span>`}
    ${alerted && html`<span class="tag tag-alert">one card</span>`}`;
}

function turnHint(view, legal) {
  if (legal.some((a) => a.type === 'keep')) return 'Play the card you drew, or keep it.';
  if (legal.some((a) => a.type === 'take_stack')) return `Chain a stacking card, or take +${view.stack.amount}.`;
  return legal.some((a) => a.type === 'play') ? 'Play a raised card, or draw.' : 'No card fits: draw one.';
}

function art() {
  return html`<span class="art-fan"><${Card} name="blue-7" size="sm" /><${Card} name="+4" size="sm" />
    <${Card} name="red-skip" size="sm" /></span>`;
}

export default {
  name: 'pika',
  title: 'Pika',
  tagline: 'Match the colour or the number, stack +2 and +4 on your neighbours, and shout “Pika!” on your last card.',
  art,
  options: [
    {
      key: 'alert_seconds',
      label: 'Time to call “Pika!”',
      help: 'How long a player with one card has to call Pika before drawing 2.',
      choices: [[2, '2 seconds'], [3, '3 seconds'], [5, '5 seconds'], [8, '8 seconds']],
      parse: Number,
      describe: (value) => `Pika alert ${value} s`,
    },
  ],
  Table: PikaTable,
  describe,
  seatInfo,
  turnHint,
  scoreTitle: 'Cards left',
  scoreLabel: (cards) => plural(cards, 'card'),
};
