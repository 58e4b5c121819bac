// The Stakes table (rules: shared/rules/stakes.md; view, actions and events: app/games/stakes/game.py).
// Flip cards toward a target set by two center dice; Bank, or Twist a die (paying a leverage die into the pot) to move
// the target under everyone. The standard game (3-6 players, five rounds) and the Duel (2 players, first to four).
import { html, useRef } from '../lib.js';
import { CountUp, popIn, roll, useOnChange } from '../motion.js';
import { playSound } from '../sound.js';
import { ErrorNote } from '../ui.js';
import { Decision, listNames, PipDie, plural, useFocusKeeper } from './parts.js';

const SUIT = { C: ['♣', 'clubs', 'black'], D: ['♦', 'diamonds', 'red'], H: ['♥', 'hearts', 'red'], S: ['♠', 'spades', 'black'] };
const RANK_WORD = { A: 'Ace', J: 'Jack', Q: 'Queen', K: 'King' };
const EFFECT = { J: 'peek', Q: 'shield', K: 'nudge' };
const EFFECT_WORD = { peek: 'Peek', shield: 'Shield', nudge: 'Nudge' };
const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
const FULL_DECK = Object.keys(SUIT).flatMap((suit) => RANKS.map((rank) => rank + suit));

export function parseCard(name) {
  const rank = name.slice(0, -1);
  const suit = name.slice(-1);
  return { rank, suit, value: rank === 'A' ? 1 : EFFECT[rank] ? 0 : Number(rank), effect: EFFECT[rank] || null };
}

/** "7♥", "J♣". */
export function shortName(name) {
  const { rank, suit } = parseCard(name);
  return `${rank}${SUIT[suit][0]}`;
}

/** "7 of hearts", "Jack of clubs (Peek)". */
export function cardLabel(name) {
  const { rank, suit, effect } = parseCard(name);
  return `${RANK_WORD[rank] || rank} of ${SUIT[suit][1]}${effect ? ` (${EFFECT_WORD[effect]})` : ''}`;
}

const dieName = (die) => `die ${die.toUpperCase()}`;

// ---------------------------------------------------------------------------------------------------- drawing

/** A playing card. Face cards show their effect in words; suits are symbols and colours, rank in text. */
export function PlayingCard({ name, size = 'md' }) {
  const { rank, suit, effect } = parseCard(name);
  const [symbol, , colour] = SUIT[suit];
  return html`<span class=${`scard scard-${size} scard-${colour}${effect ? ' scard-face' : ''}`} role="img"
      aria-label=${cardLabel(name)} title=${cardLabel(name)}>
    <span class="scard-corner" aria-hidden="true">${rank}<br />${symbol}</span>
    <span class="scard-middle" aria-hidden="true">${effect ? rank : symbol}</span>
    ${effect && html`<span class="scard-effect" aria-hidden="true">${EFFECT_WORD[effect]}</span>`}
  </span>`;
}

function LeverageDice({ count, label }) {
  if (!count) return null;
  return html`<span class="lev-dice" role="img" aria-label=${label}>
    ${Array.from({ length: Math.min(count, 8) }, (_, i) => html`<span key=${i} class="lev-die"></span>`)}
    ${count > 8 && html`<span>+${count - 8}</span>`}
  </span>`;
}

function ShieldIcons({ count }) {
  return html`<span class="shields" role="img" aria-label=${plural(count, 'shield')}>
    ${Array.from({ length: count }, (_, i) => html`<svg key=${i} viewBox="0 0 20 22" class="shield-icon" aria-hidden="true">
      <path d="M10 1 L18 4 V10 C18 15 14.5 19 10 21 C5.5 19 2 15 2 10 V4 Z" fill="#ffd54f" stroke="#5c4400"
        stroke-width="1.6"/></svg>`)}
  </span>`;
}

const STATUS_WORD = { live: 'live', banked: 'banked', busted: 'busted' };

// ---------------------------------------------------------------------------------------------------- odds

/**
 * What a Flip risks, from public knowledge only: the deck holds exactly the cards not in `seen_since_shuffle`
 * (game.py), and my own Peek tells me the top card while its order is known.
 */
function flipOutlook(view, me) {
  const player = view.players[me];
  const room = view.target - player.total;
  if (player.shields > 0) return { text: `Your ${plural(player.shields, 'Shield')} would discard a card that busts you.` };
  const peek = view.my_peek;
  if (peek && peek.order_known && peek.cards.length) {
    const next = parseCard(peek.cards[0]);
    const busts = next.value > room;
    return { text: `You peeked: the next card is the ${cardLabel(peek.cards[0])}${busts ? ', which busts you' : ', safe'}.`, risk: busts ? 1 : 0 };
  }
  const seen = new Set(view.seen_since_shuffle);
  let unseen = FULL_DECK.filter((card) => !seen.has(card));
  if (view.deck_size === 0 || unseen.length !== view.deck_size) {
    if (view.deck_size > 0) return null; // should not happen: the view's rule says they match
    // An empty deck is reshuffled from the discard: every card not on the table.
    const onTable = new Set(view.players.flatMap((p) => p.row));
    unseen = FULL_DECK.filter((card) => !onTable.has(card));
  }
  const bad = unseen.filter((card) => parseCard(card).value > room).length;
  const risk = unseen.length ? bad / unseen.length : 0;
  return {
    text: bad ? `${bad} of the ${unseen.length} unseen cards would bust you (${Math.round(risk * 100)}%).` : `none of the ${unseen.length} unseen cards can bust you.`,
    risk,
  };
}

/** Who a Twist of `die` would bust, over the six rolls (the other die stays): "Bot 1 on 2 of 6 rolls, you on 1". */
function twistOutlook(view, me, die, name) {
  const other = die === 'a' ? view.center_dice.b : view.center_dice.a;
  const parts = [];
  for (const p of view.players.filter((q) => q.status === 'live')) {
    const rolls = [1, 2, 3, 4, 5, 6].filter((r) => other + r + view.target_base < p.total).length;
    if (rolls) parts.push(`${p.seat === me ? 'you' : name(p.seat)} on ${rolls} of 6 rolls`);
  }
  return parts.length ? `Twist ${die.toUpperCase()} busts ${listNames(parts)}.` : null;
}

// ---------------------------------------------------------------------------------------------------- parts

function TargetBox({ view }) {
  const { a, b } = view.center_dice;
  const box = useRef(null);
  // A die that changes (a Twist's reroll, a Nudge, a new round) tumbles; a reroll rattles.
  useOnChange(`${view.round}:${a}:${b}`, (before) => {
    const [, oldA, oldB] = before.split(':').map(Number);
    const dice = box.current ? box.current.querySelectorAll('.center-die .pipdie') : [];
    if (oldA !== a) roll(dice[0]);
    if (oldB !== b) roll(dice[1]);
    playSound('roll');
  });
  return html`<div class="stakes-target" role="group" ref=${box} aria-label=${`Target ${view.target}: die A ${a} plus die B ${b} plus ${view.target_base}`}>
    <div class="target-dice" aria-hidden="true">
      <span class="center-die"><${PipDie} value=${a} size="lg" /><span class="die-tag">A</span></span>
      <span class="op">+</span>
      <span class="center-die"><${PipDie} value=${b} size="lg" /><span class="die-tag">B</span></span>
      <span class="op">+ ${view.target_base} =</span>
    </div>
    <div class="target-num"><span class="target-label">Target</span><strong>${view.target}</strong></div>
  </div>`;
}

function TableFacts({ view }) {
  const duel = view.mode === 'duel';
  return html`<div class="stakes-facts">
    <p><strong>${duel ? `Duel · round ${view.round}` : `Round ${view.round} of ${view.rounds}`}</strong>
      ${duel && html`<span class="muted"> · first to ${view.duel.wins_needed} round wins</span>`}</p>
    <p class="pot"><span>Pot:</span>
      ${view.pot ? html`<${LeverageDice} count=${view.pot} label=${plural(view.pot, 'die', 'dice')} />
        <strong>${plural(view.pot, 'die', 'dice')}</strong>` : html`<strong>empty</strong>`}</p>
    <p class="muted">Deck ${plural(view.deck_size, 'card')} · discard ${view.discard_size}</p>
  </div>`;
}

function PlayerRow({ player, view, me, name, turn }) {
  const mine = player.seat === me;
  const cards = useRef(null);
  useOnChange(player.row.length, (before) => {
    if (player.row.length !== before + 1 || !cards.current) return;
    popIn(cards.current.lastElementChild);
    playSound('card');
  });
  const room = view.target - player.total;
  const duel = view.mode === 'duel';
  let state = STATUS_WORD[player.status];
  if (player.status === 'banked' && player.banked_exact) state = 'banked exactly';
  return html`<li class=${`srow srow-${player.status}${mine ? ' srow-mine' : ''}${turn ? ' srow-turn' : ''}`}
      aria-label=${`${name(player.seat)}: ${state}, total ${player.total}`}>
    <div class="srow-head">
      <strong class="srow-name">${turn && html`<span class="turn-mark" aria-hidden="true">▶ </span>`}${name(player.seat)}</strong>
      <span class=${`tag tag-${player.status}`}>${state}</span>
      ${mine && player.first_turn && player.status === 'live' && html`<span class="tag">flip first</span>`}
      <span class="srow-total" title="Total">
        <strong><${CountUp} value=${player.total} /></strong><span class="muted"> / ${view.target}</span>
        ${player.status === 'live' && html`<span class="muted room"> · room ${Math.max(0, room)}</span>`}
      </span>
    </div>
    <div class="srow-cards" ref=${cards}>
      ${player.row.length
        ? player.row.map((card, i) => html`<${PlayingCard} key=${`${card}-${i}`} name=${card} size="sm" />`)
        : html`<span class="muted srow-empty">${player.status === 'live' ? 'no card yet' : 'no cards'}</span>`}
    </div>
    <div class="srow-foot">
      <span class="srow-dice">Dice: <${LeverageDice} count=${player.dice}
        label=${`${plural(player.dice, 'leverage die', 'leverage dice')}`} /> ${player.dice}</span>
      ${player.shields > 0 && html`<span class="srow-shields"><${ShieldIcons} count=${player.shields} /> ${plural(player.shields, 'shield')}</span>`}
      ${duel
        ? html`<span class="srow-score">Round wins: <strong>${player.round_wins}</strong> of ${view.duel.wins_needed}</span>`
        : html`<span class="srow-score">Game: <strong><${CountUp} value=${player.game_total} /></strong></span>`}
    </div>
  </li>`;
}

function ScoreTable({ view, name, me }) {
  const rounds = view.rounds;
  return html`<details class="stakes-scores" open>
    <summary>Round scores</summary>
    <div class="table-scroll" tabindex="0" role="region" aria-label="Round scores"><table class="score-table">
      <thead><tr><th scope="col">Player</th>
        ${Array.from({ length: rounds }, (_, i) => html`<th scope="col" class="num" key=${i}>R${i + 1}</th>`)}
        <th scope="col" class="num">Total</th></tr></thead>
      <tbody>${view.players.map((p) => html`<tr key=${p.seat} class=${p.seat === me ? 'mine' : ''}>
        <th scope="row">${name(p.seat)}</th>
        ${Array.from({ length: rounds }, (_, i) => html`<td class="num" key=${i}>${p.round_scores[i] ?? ''}</td>`)}
        <td class="num"><strong>${p.game_total}</strong></td></tr>`)}</tbody>
    </table></div>
  </details>`;
}

function duelRoundText(record, name) {
  if (record.result === 'dead') return 'a dead round: both busted';
  if (record.result === 'drawn') return 'a drawn round';
  return `${name(record.winner)} won`;
}

function DuelBoard({ view, name }) {
  const duel = view.duel;
  const last = duel.last_round;
  return html`<section class="stakes-duel" aria-label="The Duel">
    <div class="duel-wins">
      ${view.players.map((p) => html`<p key=${p.seat}><span>${name(p.seat)}</span>
        <span class="win-marks" role="img" aria-label=${`${p.round_wins} of ${duel.wins_needed} round wins`}>
          ${Array.from({ length: duel.wins_needed }, (_, i) => html`<span key=${i}
            class=${i < p.round_wins ? 'win-mark won' : 'win-mark'}></span>`)}</span></p>`)}
    </div>
    ${last && html`<p class="duel-last">Last round (target ${last.target}): ${duelRoundText(last, name)}.
      ${last.pressure_paid.length
        ? html` Pressure: ${listNames(last.pressure_paid.map(name))} paid a die into the pot.`
        : ' Nobody paid pressure.'}</p>`}
    ${duel.rounds.length > 1 && html`<details class="duel-history"><summary>All rounds (${duel.rounds.length})</summary>
      <ol>${duel.rounds.map((r) => html`<li key=${r.round}>Round ${r.round}, target ${r.target}:${' '}
        ${r.totals.map((t, s) => `${name(s)} ${r.status[s]} ${t}`).join(', ')} — ${duelRoundText(r, name)}</li>`)}</ol>
    </details>`}
  </section>`;
}

function PeekDialog({ legal, pending, act, busy }) {
  const [first, second] = pending.cards;
  const option = (top) => legal.find((a) => a.type === 'put_back' && a.cards[0] === top);
  return html`<${Decision} id="peek" title="Peek: the top two cards" tone="gold">
    <p>Only you see these. Choose which one comes off the deck first; the other follows it.</p>
    <div class="peek-cards">
      <${PlayingCard} name=${first} size="lg" /><${PlayingCard} name=${second} size="lg" />
    </div>
    <div class="row">
      ${[first, second].map((top) => {
        const other = top === first ? second : first;
        const action = option(top);
        return html`<button type="button" key=${top} class="btn btn-primary" disabled=${busy || !action}
            onClick=${() => act(action)}>${shortName(top)} on top, then ${shortName(other)}</button>`;
      })}
    </div>
  <//>`;
}

function NudgeDialog({ legal, view, act, busy }) {
  const nudges = legal.filter((a) => a.type === 'nudge');
  return html`<${Decision} id="nudge" title="King's Nudge: turn one center die by 1" tone="gold">
    <p>It is free and it must be done. The target moves with the die; live players above it bust.</p>
    <div class="nudge-grid">
      ${['a', 'b'].map((die) => html`<div class="nudge-die" key=${die}>
        <span class="center-die"><${PipDie} value=${view.center_dice[die]} size="md"
          label=${`${dieName(die)} shows ${view.center_dice[die]}`} /><span class="die-tag">${die.toUpperCase()}</span></span>
        ${['down', 'up'].map((direction) => {
          const action = nudges.find((n) => n.die === die && n.direction === direction);
          const step = direction === 'up' ? 1 : -1;
          const value = view.center_dice[die] + step;
          if (!action) {
            return html`<span key=${direction} class="nudge-none">${direction === 'up' ? '▲' : '▼'} ${dieName(die)} is
              already ${view.center_dice[die]}</span>`;
          }
          return html`<button type="button" key=${direction} class="btn btn-small btn-nudge" disabled=${busy}
              aria-label=${`Nudge ${dieName(die)} ${direction} to ${value}: target ${view.target + step}`}
              onClick=${() => act(action)}>
            <span>${direction === 'up' ? '▲' : '▼'} to ${value}</span>
            <small>target ${view.target + step}</small></button>`;
        })}
      </div>`)}
    </div>
  <//>`;
}

function Controls({ view, legal, me, act, busy, name }) {
  const flip = legal.find((a) => a.type === 'flip');
  const bank = legal.find((a) => a.type === 'bank');
  const pass = legal.find((a) => a.type === 'pass');
  const twists = legal.filter((a) => a.type === 'twist');
  const player = view.players[me];
  const outlook = flip ? flipOutlook(view, me) : null;
  const exact = bank && player.total === view.target;
  const duel = view.mode === 'duel';
  const twistRange = (die) => {
    const other = die === 'a' ? view.center_dice.b : view.center_dice.a;
    return `new target ${other + 11}–${other + 16}`;
  };
  return html`<div class="stakes-controls" role="group" aria-label="Your move">
    ${player.status === 'banked' && html`<p class="controls-note">You banked ${player.total}. While your opponent is
      live you may Twist to move the target, or pass.</p>`}
    <div class="move-buttons">
      ${flip && html`<button type="button" class="btn btn-big btn-flip" disabled=${busy} onClick=${() => act(flip)}>
        Flip a card</button>`}
      ${bank && html`<button type="button" class=${`btn btn-big btn-bank${exact ? ' exact' : ''}`} disabled=${busy}
        onClick=${() => act(bank)}>Bank ${player.total}${exact ? ' — exact!' : ''}</button>`}
      ${twists.map((t) => html`<button type="button" key=${t.die} class="btn btn-twist" disabled=${busy}
          aria-label=${`Twist ${dieName(t.die)}: pay one leverage die, reroll ${dieName(t.die)} (now ${view.center_dice[t.die]}), ${twistRange(t.die)}`}
          onClick=${() => act(t)}>
        <span>Twist ${t.die.toUpperCase()}</span><small>reroll the ${view.center_dice[t.die]} · ${twistRange(t.die)}</small></button>`)}
      ${pass && html`<button type="button" class="btn" disabled=${busy} onClick=${() => act(pass)}>Pass</button>`}
    </div>
    ${outlook && html`<p class=${`outlook${outlook.risk >= 0.5 ? ' outlook-high' : ''}`}>Flip: ${outlook.text}</p>`}
    ${exact && html`<p class="outlook">Banking now hits the target exactly: ${duel
      ? 'you take a leverage die from your opponent and pay no pressure.'
      : `+${view.exact_bonus} points${view.pot ? ' and a die back from the pot' : ''}.`}</p>`}
    ${twists.map((t) => twistOutlook(view, me, t.die, name)).filter(Boolean).map((text) => html`<p class="outlook" key=${text}>${text}</p>`)}
    ${twists.length > 0 && twists.every((t) => !twistOutlook(view, me, t.die, name)) && html`<p class="outlook">No Twist can bust anyone now.</p>`}
    ${twists.length > 0 && html`<p class="controls-note">A Twist costs one of your ${plural(player.dice, 'leverage die', 'leverage dice')}${' '}
      (it goes to the pot). Live players above the new target bust${player.status === 'live' ? ', you included' : ''}.</p>`}
    ${player.first_turn && flip && !bank && html`<p class="controls-note">Your first turn of the round must be a Flip.</p>`}
  </div>`;
}

function WaitingNote({ view, name, me }) {
  const pending = view.pending;
  if (pending && pending.seat !== me) {
    return html`<p class="note">${pending.type === 'nudge'
      ? `${name(pending.seat)} flipped a King and must nudge a center die up or down by 1.`
      : `${name(pending.seat)} flipped a Jack and is peeking at the top two cards. Only they see them.`}</p>`;
  }
  return null;
}

function MyPeekNote({ view }) {
  const peek = view.my_peek;
  if (!peek || !peek.cards.length || (view.pending && view.pending.type === 'put_back')) return null;
  return html`<p class="note note-peek"><strong>You peeked:</strong>${' '}
    ${peek.order_known
      ? `the next ${peek.cards.length === 1 ? 'card is' : 'cards are'} ${peek.cards.map(cardLabel).join(', then ')}.`
      : `${peek.cards.map(cardLabel).join(' and ')} are near the top, but another Peek may have changed their order.`}</p>`;
}

// ---------------------------------------------------------------------------------------------------- the table

function StakesTable({ view, legal, send, busy, error, me, name, over }) {
  const root = useRef(null);
  const mark = useFocusKeeper(root);
  const act = (action) => {
    if (busy || !action) return undefined;
    mark();
    return send(action);
  };
  const pending = view.pending;
  const mine = me !== null && me !== undefined;
  const peeking = mine && pending && pending.type === 'put_back' && pending.seat === me && pending.cards;
  const nudging = mine && pending && pending.type === 'nudge' && pending.seat === me;
  const myMove = mine && legal.length > 0 && !peeking && !nudging;
  const duel = view.mode === 'duel';
  return html`<div class="felt stakes" ref=${root} tabindex="-1">
    <div class="stakes-centre">
      <${TargetBox} view=${view} />
      <${TableFacts} view=${view} />
    </div>
    ${peeking && html`<${PeekDialog} legal=${legal} pending=${pending} act=${act} busy=${busy} />`}
    ${nudging && html`<${NudgeDialog} legal=${legal} view=${view} act=${act} busy=${busy} />`}
    <${WaitingNote} view=${view} name=${name} me=${me} />
    <${MyPeekNote} view=${view} />
    ${myMove && html`<${Controls} view=${view} legal=${legal} me=${me} act=${act} busy=${busy} name=${name} />`}
    <${ErrorNote} error=${error} />
    <ul class="stakes-rows" aria-label="Rows and totals">
      ${view.players.map((p) => html`<${PlayerRow} key=${p.seat} player=${p} view=${view} me=${me} name=${name}
        turn=${!over && view.turn === p.seat} />`)}
    </ul>
    ${duel ? html`<${DuelBoard} view=${view} name=${name} />` : html`<${ScoreTable} view=${view} name=${name} me=${me} />`}
  </div>`;
}

// ---------------------------------------------------------------------------------------------------- the module

function bustedText(seats, name) {
  return seats && seats.length ? ` ${listNames(seats.map(name))} ${seats.length === 1 && name(seats[0]) !== 'You' ? 'busts' : 'bust'}.` : '';
}

function describe(event, { name, me }) {
  const who = name(event.seat);
  switch (event.type) {
    case 'round_start':
      return `Round ${event.round}: the dice show ${event.center_dice.a} and ${event.center_dice.b}, target ${event.target}. ${name(event.first_player)} ${event.first_player === me ? 'flip' : 'flips'} first.`;
    case 'flip': {
      const card = cardLabel(event.card);
      if (event.shielded) return `${who} flipped the ${card}, but a Shield discarded it: the total stays ${event.total}.`;
      let text = `${who} flipped the ${card}: total ${event.total}`;
      if (event.busted) return `${text}, bust!`;
      if (event.effect === 'shield') text += '; a Shield against the next bust';
      if (event.effect === 'nudge') text += '; a King: a center die must be nudged';
      if (event.effect === 'peek') text += '; a Jack: a Peek at the top two cards';
      return `${text}.`;
    }
    case 'shield_used':
      return null; // the flip says it
    case 'peek':
      if (event.cards) return `You peeked at ${event.cards.map(cardLabel).join(' and ')}.`;
      return event.cards_seen ? `${who} peeked at the top ${plural(event.cards_seen, 'card')}.` : `${who} had no card to peek at.`;
    case 'put_back':
      if (event.cards) return `You put them back: the ${cardLabel(event.cards[0])} on top, then the ${cardLabel(event.cards[1])}.`;
      return `${who} put the two cards back in an order only they know.`;
    case 'nudge':
      return `${who} nudged ${dieName(event.die)} ${event.direction} from ${event.old} to ${event.new}: target ${event.target}.${bustedText(event.busted, name)}`;
    case 'bank': {
      let text = `${who} banked ${event.total}`;
      if (event.exact) {
        text += ', exactly on the target';
        if (event.score !== undefined) text += ` (${event.score} points)`;
        if (event.die === 'from_pot') text += ` and took a die back from the pot`;
        if (event.die === 'stolen') text += ` and took a leverage die from the opponent`;
      } else if (event.score !== undefined && event.score !== event.total) text += ` (${event.score} points)`;
      return `${text}.`;
    }
    case 'twist':
      return `${who} ${event.cold ? 'cold-twisted' : 'twisted'} ${dieName(event.die)}: ${event.old} → ${event.new}, target ${event.target}; ${plural(event.dice_left, 'die', 'dice')} left, pot ${event.pot}.${bustedText(event.busted, name)}`;
    case 'pass':
      return `${who} passed.`;
    case 'reshuffle':
      return `The discard pile (${plural(event.shuffled, 'card')}) was shuffled under the deck.`;
    case 'round_end': {
      if (event.results) {
        const parts = event.results.map((r) => `${name(r.seat)} ${r.status === 'busted' ? 'busted (0)' : r.score}`);
        return `Round ${event.round} is over (target ${event.target}): ${parts.join(', ')}.`;
      }
      return `Round ${event.round} is over (target ${event.target}): ${duelRoundText(event, name)}. Round wins: ${event.round_wins.map((w, s) => `${name(s)} ${w}`).join(', ')}.`;
    }
    case 'pressure': {
      const paid = event.paid.length ? `${listNames(event.paid.map(name))} paid a die into the pot` : 'nobody paid';
      const excused = (event.excused || []).map((e) => `${name(e.seat)} ${e.reason === 'banked_exact' ? 'banked exactly' : 'had no die'}`);
      return `Pressure: ${paid}${excused.length ? ` (${excused.join('; ')})` : ''}.`;
    }
    case 'game_end':
      return null;
    default:
      return null;
  }
}

function seatInfo(view, seat) {
  const p = view.players[seat];
  if (!p) return null;
  return html`<span class="seat-stakes"><strong>${p.total}</strong>${' '}<span class=${`tag tag-${p.status}`}>${p.status}</span>
    <span class="seat-dice" title="Leverage dice"><span class="lev-die" aria-hidden="true"></span> ${p.dice}</span>
    ${p.shields > 0 && html`<span class="tag tag-shield">${plural(p.shields, 'shield')}</span>`}</span>`;
}

function turnHint(view, legal) {
  if (legal.some((a) => a.type === 'put_back')) return 'Choose the order of the two peeked cards.';
  if (legal.some((a) => a.type === 'nudge')) return 'Nudge one center die up or down by 1.';
  if (legal.some((a) => a.type === 'pass')) return 'Twist to move the target, or pass.';
  if (!legal.some((a) => a.type === 'bank')) return `Flip a card: you need to get close to ${view.target} without going over.`;
  return 'Flip, Bank, or Twist a die to move the target.';
}

function art() {
  return html`<span class="art-stakes"><${PipDie} value=${4} size="md" /><${PipDie} value=${6} size="md" />
    <span class="art-cards"><${PlayingCard} name="7H" size="sm" /><${PlayingCard} name="JS" size="sm" /></span></span>`;
}

export default {
  name: 'stakes',
  title: 'Stakes',
  tagline: 'Flip cards toward a target two dice set, bank before you bust, and pay to reroll the target under everyone.',
  art,
  seatNote: (n) => (n === 2 ? 'Duel' : null),
  options: [],
  Table: StakesTable,
  describe,
  seatInfo,
  turnHint,
  scoreTitle: (seats) => (seats === 2 ? 'Round wins' : 'Points'),
  scoreLabel: (score, { seats } = {}) => (seats === 2 ? plural(score, 'round win') : plural(score, 'point')),
};

