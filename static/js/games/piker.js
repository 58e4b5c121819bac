// The Piker table (rules: shared/rules/piker.md; view, actions and events: app/games/piker/game.py and
// securing.py). Six rounds: roll dice in secret, place them one at a time on face-down market cards or After Market
// spots, win cards with the most pips, secure them with After Market dice; the poorest player becomes the Piker.
import { html, useEffect, useLayoutEffect, useRef, useState } from '../lib.js';
import { CountUp, popIn, roll, useOnChange } from '../motion.js';
import { playSound } from '../sound.js';
import { ErrorNote, ordinal } from '../ui.js';
import { capital, Decision, listNames, PipDie, plural, SEAT_COLOURS, useFocusKeeper } from './parts.js';

const TIER_NAMES = { blue_chip: 'Blue chip', growth: 'Growth', speculative: 'Speculative' };
const SECTOR_NAMES = { tech: 'Tech', energy: 'Energy', shipping: 'Shipping', 'real-estate': 'Real Estate', mining: 'Mining' };
const EXTRA_REASONS = { piker: 'the Piker', won_nothing: 'won no card', extra_capital: 'Extra Capital' };
const STEPS = [
  [1, 'Generate Income'], [2, 'Invest'], [3, 'Collect Investments'], [4, 'The After Market'], [5, 'Refill the Market'],
  [6, 'The Piker'],
];

const seatColour = (seat) => SEAT_COLOURS[seat % SEAT_COLOURS.length];

function cardText(card) {
  if (!card) return 'a face-down card';
  if (card.kind === 'investment') return `${SECTOR_NAMES[card.sector]} ${card.victory_points} VP (secure ${card.secure_value})`;
  return card.name;
}

/** The victory points of a player's unsecured cards: on the table, but they score nothing unless secured. */
const unsecuredPoints = (player) => player.unsecured.reduce((sum, card) => sum + (card.victory_points || 0), 0);

function reasonsText(reasons) {
  return reasons.map((r) => EXTRA_REASONS[r] || r).join(', ');
}

// ---------------------------------------------------------------------------------------------------- drawing

/** A seat's die: the seat's colour, the pips drawn, and the seat's name for screen readers and on hover. */
function SeatDie({ seat, pips, name, size = 'sm' }) {
  return html`<span class="seatdie" style=${`--seat:${seatColour(seat)}`}>
    <${PipDie} value=${pips} size=${size} tone="seat" label=${`${name(seat)}: ${pips}`} title=${`${name(seat)}: ${pips}`} /></span>`;
}

/** A face-up card, or a card's back showing its risk tier. */
export function PikerCard({ card, tier, size = 'md', secured, note }) {
  if (!card) {
    return html`<span class=${`pkcard pkcard-back pkcard-${size} tier-${tier}`} role="img"
        aria-label=${`Face-down ${TIER_NAMES[tier]} card`}>
      <span class="pkcard-tier">${TIER_NAMES[tier]}</span><span class="pkcard-mark" aria-hidden="true">?</span>
      ${note && html`<span class="pkcard-note">${note}</span>`}</span>`;
  }
  if (card.kind === 'volatility') {
    return html`<span class=${`pkcard pkcard-vol pkcard-${size}`} role="img" aria-label=${`${card.name}: ${card.effect}`}
        title=${`${card.name}: ${card.effect}`}>
      <span class="pkcard-tier">Market Volatility</span><strong class="pkcard-name">${card.name}</strong>
      ${size !== 'sm' && html`<span class="pkcard-effect">${card.effect}</span>`}
      ${note && html`<span class="pkcard-note">${note}</span>`}</span>`;
  }
  const label = `${SECTOR_NAMES[card.sector]}, ${TIER_NAMES[card.tier]}: ${card.victory_points} victory points, secure value ${card.secure_value}${secured ? ', secured' : ''}`;
  return html`<span class=${`pkcard pkcard-inv pkcard-${size} sector-${card.sector}${secured ? ' pkcard-secured' : ''}`}
      role="img" aria-label=${label} title=${label}>
    <span class="pkcard-sector">${SECTOR_NAMES[card.sector]}</span>
    <span class="pkcard-vp"><strong>${card.victory_points}</strong><small>VP</small></span>
    <span class="pkcard-secure">${secured ? 'secured' : `secure ${card.secure_value}`}</span>
    ${note && html`<span class="pkcard-note">${note}</span>`}
  </span>`;
}

// ---------------------------------------------------------------------------------------------------- market

function MarketSlot({ slot, name, me, placeButton, tipPick }) {
  const bidders = slot.pips.map((p, seat) => ({ seat, p })).filter((b) => slot.dice.some((d) => d.seat === b.seat));
  const top = Math.max(0, ...slot.pips);
  let status = null;
  if (slot.won_by !== null && slot.won_by !== undefined) status = html`<p class="mslot-result won">Won by <strong>${name(slot.won_by)}</strong></p>`;
  else if (slot.discarded) status = html`<p class="mslot-result">Nobody bid: discarded</p>`;
  const note = slot.seen_by_insider_tip ? 'seen by your Insider Tip' : null;
  return html`<li class=${`mslot tier-${slot.tier}${slot.won_by === me && me !== null ? ' mine' : ''}`} data-slot=${slot.slot}>
    <div class="mslot-card"><span class="mslot-no">Card ${slot.slot + 1}</span>
      <${PikerCard} card=${slot.face} tier=${slot.tier} note=${note} /></div>
    <div class="mslot-bids">
      ${bidders.length
        ? bidders.map((b) => html`<p key=${b.seat} class=${`mbid${b.p === top ? ' lead' : ''}`}>
            <span class="mbid-name">${name(b.seat)}</span>
            <span class="mbid-dice">${slot.dice.filter((d) => d.seat === b.seat).map((d, i) => html`<${SeatDie} key=${i} seat=${d.seat} pips=${d.pips} name=${name} />`)}</span>
            <strong class="mbid-total">${b.p}</strong></p>`)
        : !status && html`<p class="muted mbid-none">No dice yet</p>`}
    </div>
    ${status}
    ${placeButton}
    ${tipPick}
  </li>`;
}

/** The After Market, drawn as the market's last cell so a placement anywhere is one row of buttons. */
function AfterMarket({ am, name, placeButton }) {
  const empty = Math.max(0, am.open);
  return html`<li class="mslot amarket" aria-labelledby="am-title">
    <h3 id="am-title" class="amarket-title">After Market</h3>
    <p class="muted amarket-help">${am.open} of ${am.spots} spots open<span class="wide-only"> · dice here secure won cards in step 4</span></p>
    <ul class="amarket-spots">
      ${am.dice.map((d, i) => html`<li key=${i} class="amspot"><${SeatDie} seat=${d.seat} pips=${d.pips} name=${name} />
        <span class="amspot-name">${name(d.seat)}</span></li>`)}
      ${Array.from({ length: empty }, (_, i) => html`<li key=${`e${i}`} class="amspot empty" aria-label="open spot"></li>`)}
    </ul>
    ${placeButton}
  </li>`;
}

// ---------------------------------------------------------------------------------------------------- players

function PlayerPanel({ player, view, name, me, over }) {
  const mine = player.seat === me;
  const acting = !over && view.to_act.includes(player.seat);
  const dice = player.dice_this_round;
  return html`<li class=${`pkplayer${mine ? ' mine' : ''}${acting ? ' acting' : ''}`} style=${`--seat:${seatColour(player.seat)}`}>
    <div class="pkplayer-head">
      <span class="pkplayer-dot" aria-hidden="true"></span>
      <strong>${acting && html`<span class="turn-mark" aria-hidden="true">▶ </span>`}${name(player.seat)}</strong>
      ${player.is_piker && html`<span class="tag tag-piker">the Piker</span>`}
      ${view.first_player === player.seat && !over && html`<span class="tag">first player</span>`}
      ${player.securing === 'deciding' && html`<span class="tag tag-turn">securing…</span>`}
      ${player.securing === 'done' && html`<span class="tag tag-accepted">secured</span>`}
    </div>
    <p class="pkplayer-stats">
      <span title="Secured cards, Dividends and set bonuses: what scores at the end"><strong><${CountUp} value=${player.secured_score} /></strong> points secured</span>
      <span title="Unsecured cards score nothing at the end unless they are secured">${unsecuredPoints(player)} VP unsecured</span>
      <span class="muted" title="Secured and unsecured cards plus Dividends: the fewest takes the Piker card">${player.victory_points_on_table} VP on the table (for the Piker)</span></p>
    ${!over && html`<p class="pkplayer-dice">${plural(dice, 'die', 'dice')} this round${player.extra_dice_this_round.length ? ` (+${player.extra_dice_this_round.length}: ${reasonsText(player.extra_dice_this_round)})` : ''}${' '}
      · ${player.unplaced_dice} unplaced${player.extra_dice_next_round ? ` · next round +${player.extra_dice_next_round} (${reasonsText(player.extra_dice_next_round_reasons)})` : ''}</p>`}
    <div class="pkplayer-cards">
      ${player.unsecured.length > 0 && html`<div class="pkgroup"><span class="pkgroup-label">Unsecured</span>
        <span class="pkgroup-cards">${player.unsecured.map((c) => html`<${PikerCard} key=${c.id} card=${c} size="sm" />`)}</span></div>`}
      ${player.secured.length > 0 && html`<div class="pkgroup"><span class="pkgroup-label">Secured</span>
        <span class="pkgroup-cards">${player.secured.map((c) => html`<${PikerCard} key=${c.id} card=${c} size="sm" secured />`)}</span></div>`}
      ${player.dividends.length > 0 && html`<div class="pkgroup"><span class="pkgroup-label">Dividends</span>
        <span class="pkgroup-cards">${player.dividends.map((c) => html`<${PikerCard} key=${c.id} card=${c} size="sm" />`)}</span></div>`}
      ${player.kept_cards.length > 0 && html`<div class="pkgroup"><span class="pkgroup-label">Held</span>
        <ul class="pkkept">${player.kept_cards.map((k) => html`<li key=${k.card.id}><strong>${k.card.name}</strong>: ${k.card.effect}.
          <span class="muted"> Played ${k.when_text}.</span>${k.playable_now && html` <span class="tag tag-turn">playable now</span>`}</li>`)}</ul></div>`}
      ${!player.unsecured.length && !player.secured.length && !player.dividends.length && !player.kept_cards.length
        && html`<p class="muted">No cards yet.</p>`}
    </div>
  </li>`;
}

function FinalScores({ view, name, me }) {
  const final = view.final;
  const order = final.placings.map((p, seat) => ({ p, seat })).sort((a, b) => a.p - b.p || a.seat - b.seat);
  return html`<section class="pkfinal" aria-labelledby="pkfinal-title">
    <h2 id="pkfinal-title">Final scores</h2>
    <div class="table-scroll" tabindex="0" role="region" aria-label="Final scores, by player"><table class="score-table">
      <thead><tr><th scope="col">Place</th><th scope="col">Player</th><th scope="col" class="num">Cards</th>
        <th scope="col" class="num">Dividends</th><th scope="col">Sets</th><th scope="col" class="num">Portfolios</th>
        <th scope="col" class="num">Total</th></tr></thead>
      <tbody>${order.map(({ p, seat }) => {
        const s = final.scores[seat];
        const sets = Object.entries(s.sector_sets).map(([sector, bonus]) => `${SECTOR_NAMES[sector]} +${bonus}`).join(', ');
        return html`<tr key=${seat} class=${seat === me ? 'mine' : ''}><td>${ordinal(p)}</td><th scope="row">${name(seat)}</th>
          <td class="num">${s.secured_cards}</td><td class="num">${s.dividends}</td><td>${sets || '—'}</td>
          <td class="num">${s.portfolios ? `${s.portfolios} (+${s.portfolio_points})` : '—'}</td>
          <td class="num"><strong>${s.total}</strong></td></tr>`;
      })}</tbody>
    </table></div>
    ${final.roll_off.length > 0 && html`<p class="muted">A tie for first was settled by rolling two dice each.</p>`}
    <p class="muted">Unsecured cards score nothing. Cards left unsecured: ${order.map(({ seat }) => `${name(seat)} ${plural(final.scores[seat].unsecured_cards, 'card')}`).join(', ')}.</p>
  </section>`;
}

// ---------------------------------------------------------------------------------------------------- decisions

function SecureDecision({ view, legal, act, busy, name }) {
  const decision = view.decision;
  const me = view.you;
  const player = view.players[me];
  const secures = legal.filter((a) => a.type === 'secure');
  const finish = legal.find((a) => a.type === 'finish_securing');
  const chosenIds = new Set(decision.chosen.map((c) => c.card));
  const open = player.unsecured.filter((c) => !chosenIds.has(c.id));
  const byId = Object.fromEntries(player.unsecured.map((c) => [c.id, c]));
  const suggested = decision.suggested || [];
  const [applying, setApplying] = useState(false);
  const wayText = (a) => `${a.dice.join(' + ')}${a.leveraged_buyouts ? ` + ${plural(a.leveraged_buyouts, 'Leveraged Buyout')} (+${3 * a.leveraged_buyouts})` : ''}`;
  const sameWay = (a, s) => a.card === s.card && a.leveraged_buyouts === s.leveraged_buyouts
    && a.dice.length === s.dice.length && a.dice.every((d, i) => d === s.dice[i]);
  const applySuggestion = async () => {
    setApplying(true);
    try {
      for (const choice of suggested) {
        const action = secures.find((a) => sameWay(a, choice)) || { type: 'secure', ...choice };
        const ok = await act(action);
        if (!ok) break;
      }
    } finally {
      setApplying(false);
    }
  };
  const points = suggested.reduce((sum, s) => sum + (byId[s.card]?.victory_points || 0), 0);
  return html`<${Decision} id="secure" title="The After Market: secure your cards" tone="gold">
    <p>Your After Market dice: ${decision.after_market_dice.length
      ? decision.after_market_dice.map((d, i) => html`<${PipDie} key=${i} value=${d} size="sm" label=${`${d}`} />`)
      : html`<strong>none left</strong>`}
      ${decision.leveraged_buyouts > 0 && html` · ${plural(decision.leveraged_buyouts, 'Leveraged Buyout')} (+3 pips each on one card)`}</p>
    <p class="muted">A card is secured by dice whose pips reach its secure value; each die serves one card, and dice left over
      are lost. Your choices stay secret until everyone has chosen.</p>
    ${suggested.length > 0 && html`<div class="suggest">
      <p><strong>Suggested:</strong> ${suggested.map((s) => `${cardText(byId[s.card])} with ${wayText(s)}`).join('; ')}
        <span class="muted"> (${plural(points, 'victory point')}${suggested.length > 1 ? ' plus any set bonus' : ''})</span></p>
      <button type="button" class="btn btn-primary" disabled=${busy || applying} onClick=${applySuggestion}>Secure as suggested</button>
    </div>`}
    ${decision.chosen.length > 0 && html`<p>Chosen so far: ${decision.chosen.map((c) => `${cardText(byId[c.card])} with ${wayText(c)}`).join('; ')}.</p>`}
    <ul class="secure-list">
      ${open.map((card) => {
        const ways = secures.filter((a) => a.card === card.id);
        return html`<li key=${card.id} class="secure-row"><${PikerCard} card=${card} size="sm" />
          <div class="secure-ways">${ways.length
            ? ways.map((a, i) => html`<button type="button" key=${i} class="btn btn-small" disabled=${busy || applying}
                aria-label=${`Secure ${cardText(card)} with ${wayText(a)}`} onClick=${() => act(a)}>${wayText(a)}</button>`)
            : html`<span class="muted">not enough pips left</span>`}</div></li>`;
      })}
    </ul>
    ${finish && html`<button type="button" class="btn" disabled=${busy || applying} onClick=${() => act(finish)}>
      ${decision.chosen.length ? 'Done securing' : 'Secure nothing this round'}</button>`}
  <//>`;
}

function InsiderTipDecision({ view, legal, act, busy, picks, setPicks }) {
  const keep = legal.find((a) => a.type === 'keep_card');
  const pair = legal.find((a) => a.type === 'play_insider_tip' && a.slots.length === picks.length
    && a.slots.every((s) => picks.includes(s)));
  return html`<${Decision} id="tip" title="Insider Tip" tone="gold">
    <p>Look at two face-down market cards before anyone invests; only you will see them. Choose two cards in the market
      below (${picks.length} of 2 chosen), or keep the Insider Tip for a later round.</p>
    <div class="row">
      <button type="button" class="btn btn-primary" disabled=${busy || !pair} onClick=${() => pair && act(pair)}>
        Look at ${picks.length === 2 ? `cards ${picks.map((s) => s + 1).join(' and ')}` : 'the two cards'}</button>
      ${keep && html`<button type="button" class="btn" disabled=${busy} onClick=${() => { setPicks([]); act(keep); }}>Keep the card</button>`}
    </div>
  <//>`;
}

function SimpleDecision({ view, legal, act, busy, name }) {
  const step = view.step;
  const keep = legal.find((a) => a.type === 'keep_card');
  if (step === 'extra_capital') {
    const play = legal.find((a) => a.type === 'play_extra_capital');
    return html`<${Decision} id="capital" title="Extra Capital" tone="gold">
      <p>Play it now to roll one extra die this round, or keep it for a later round.</p>
      <div class="row"><button type="button" class="btn btn-primary" disabled=${busy} onClick=${() => act(play)}>Play it: one extra die</button>
        <button type="button" class="btn" disabled=${busy} onClick=${() => act(keep)}>Keep the card</button></div>
    <//>`;
  }
  if (step === 'bull_run') {
    const options = legal.filter((a) => a.type === 'bull_run');
    const player = view.players[view.you];
    const byId = Object.fromEntries(player.unsecured.map((c) => [c.id, c]));
    return html`<${Decision} id="bull" title="Bull Run: secure one card for free" tone="gold">
      <p>Choose which of your unsecured cards Bull Run secures.</p>
      <div class="choice-cards">${options.map((a) => html`<button type="button" key=${a.card} class="card-choice" disabled=${busy}
          aria-label=${`Secure ${cardText(byId[a.card])}`} onClick=${() => act(a)}><${PikerCard} card=${byId[a.card]} size="sm" />
          <span>Secure</span></button>`)}</div>
    <//>`;
  }
  if (step === 'hostile_takeover') {
    const options = legal.filter((a) => a.type === 'play_hostile_takeover');
    const owner = {};
    const faces = {};
    view.players.forEach((p) => p.unsecured.forEach((c) => {
      owner[c.id] = p.seat;
      faces[c.id] = c;
    }));
    return html`<${Decision} id="takeover" title="Hostile Takeover" tone="gold">
      <p>Take one unsecured card from an opponent now, or keep the card for a later round.</p>
      <div class="choice-cards">${options.map((a) => html`<button type="button" key=${a.card} class="card-choice" disabled=${busy}
          aria-label=${`Take ${cardText(faces[a.card])} from ${name(owner[a.card])}`} onClick=${() => act(a)}>
          <${PikerCard} card=${faces[a.card]} size="sm" /><span>from ${name(owner[a.card])}</span></button>`)}</div>
      ${keep && html`<button type="button" class="btn" disabled=${busy} onClick=${() => act(keep)}>Keep the card</button>`}
    <//>`;
  }
  if (step === 'extra_card') {
    const add = legal.find((a) => a.type === 'extra_card' && a.add);
    const no = legal.find((a) => a.type === 'extra_card' && !a.add);
    return html`<${Decision} id="extra" title="You are the Piker" tone="gold">
      <p>You roll one extra die and play first next round. Add one more face-down card to the new market?</p>
      <div class="row"><button type="button" class="btn btn-primary" disabled=${busy} onClick=${() => act(add)}>Add a card</button>
        <button type="button" class="btn" disabled=${busy} onClick=${() => act(no)}>No extra card</button></div>
    <//>`;
  }
  return null;
}

/** My secret dice (one button per value) and, in the same row, what happens now; the dice tumble when rolled. */
function DicePicker({ dice, chosen, setChosen, busy, round, status }) {
  const box = useRef(null);
  useOnChange(`${round}:${dice.length > 0}`, () => {
    if (!dice.length || !box.current) return;
    box.current.querySelectorAll('.pipdie').forEach((die, i) => roll(die, { delay: 60 * i }));
    playSound('roll');
  });
  return html`<div class="mydice" role="group" aria-label="Your secret dice: choose one to place" ref=${box}>
    ${dice.length > 0 && html`<span class="mydice-label">Your dice</span>`}
    ${dice.map((d, i) => {
      const first = dice.indexOf(d) === i; // equal dice act alike: one button per value, the rest shown
      if (!first) return html`<span key=${i} class="mydie-still"><${PipDie} value=${d} size="md" label=${`${d}`} /></span>`;
      const picked = chosen === d;
      return html`<button type="button" key=${i} class=${`mydie${picked ? ' picked' : ''}`} aria-pressed=${picked ? 'true' : 'false'}
          disabled=${busy} aria-label=${`Die showing ${d}${picked ? ', chosen' : ''}`} onClick=${() => setChosen(d)}>
        <${PipDie} value=${d} size="md" /></button>`;
    })}
    <p class="mydice-note" aria-live="polite">${dice.length > 0 && html`<span class="muted wide-only">only you see these. </span>`}${status}</p>
  </div>`;
}

/** A die placed anywhere pops in where it lands, with a click. */
function usePlacedDice(view, root) {
  const counts = [...view.market.map((slot) => slot.dice.length), view.after_market.dice.length].join(',');
  useOnChange(counts, (before) => {
    const old = before.split(',').map(Number);
    const now = counts.split(',').map(Number);
    if (now.length !== old.length || !root.current) return;
    now.forEach((n, i) => {
      if (n !== old[i] + 1) return;
      const where = i < view.market.length ? `[data-slot="${view.market[i].slot}"] .seatdie` : '.amarket .amspot:not(.empty)';
      const placed = root.current.querySelectorAll(where);
      popIn(placed[placed.length - 1]);
      playSound('card');
    });
  });
}

// ---------------------------------------------------------------------------------------------------- the table

function PikerTable({ view, legal, send, busy, error, me, name, over }) {
  const root = useRef(null);
  const mark = useFocusKeeper(root, '.decision button:not([disabled]), .place-btn:not([disabled]), .mydie:not([disabled])');
  const act = (action) => {
    if (busy || !action) return Promise.resolve(false);
    mark();
    return send(action);
  };
  const mine = me !== null && me !== undefined;
  const myDice = view.my_dice || [];
  const [chosen, setChosen] = useState(null);
  const [picks, setPicks] = useState([]);
  const placements = legal.filter((a) => a.type === 'place_die');
  const placing = placements.length > 0;
  const pips = placing && myDice.includes(chosen) ? chosen : myDice[0];
  useEffect(() => {
    if (chosen !== null && !myDice.includes(chosen)) setChosen(null);
  }, [myDice.join(',')]);
  useEffect(() => {
    if (view.step !== 'insider_tip') setPicks([]);
  }, [view.step]);

  const placeOn = (slot) => placements.find((a) => a.pips === pips && (slot === 'am' ? a.on === 'after_market' : a.on === 'card' && a.slot === slot));
  const placeButton = (slot, where) => {
    const action = placing ? placeOn(slot) : null;
    if (!action) return null;
    return html`<button type="button" class="btn btn-small place-btn" disabled=${busy}
        aria-label=${`Place your ${pips} on ${where}`} onClick=${() => act(action)}>
      Place <${PipDie} value=${pips} size="xs" /></button>`;
  };
  const tipping = view.step === 'insider_tip' && legal.some((a) => a.type === 'play_insider_tip');
  const tipPick = (slot) => {
    if (!tipping || slot.face || slot.discarded || slot.won_by !== null) return null;
    const on = picks.includes(slot.slot);
    return html`<button type="button" class=${`btn btn-small tip-btn${on ? ' on' : ''}`} aria-pressed=${on ? 'true' : 'false'}
        disabled=${busy || (!on && picks.length >= 2)}
        onClick=${() => setPicks(on ? picks.filter((s) => s !== slot.slot) : [...picks, slot.slot].slice(-2))}>
      ${on ? 'Chosen' : 'Look at this card'}</button>`;
  };
  const decisionKind = view.decision?.kind;
  const others = mine ? view.players.filter((p) => p.seat !== me) : view.players;
  const ordered = mine ? [view.players[me], ...others] : view.players;
  const waitingFor = !over && view.to_act.filter((s) => s !== me);
  usePlacedDice(view, root);
  // One line, always there, says what happens now: no note appears above the market to push its buttons down.
  let status = '';
  if (placing) status = html`Place your <strong>${pips}</strong> on a card or the After Market.`;
  else if (waitingFor && waitingFor.length > 0 && !(mine && legal.length)) {
    status = view.step === 'after_market'
      ? `${listNames(waitingFor.map(name))} ${waitingFor.length === 1 ? 'is' : 'are'} choosing what to secure, in secret.`
      : view.step === 'invest' ? `${name(waitingFor[0])} is placing a die.`
      : `Waiting for ${listNames(waitingFor.map(name))}: ${view.step_name}.`;
  }

  return html`<div class="felt piker" ref=${root} tabindex="-1">
    <div class="pkhead">
      <p class="pkround"><strong>${over ? 'The game is over' : `Round ${view.round} of ${view.rounds}`}</strong>
        ${!over && view.step_number && html`<span class="wide-only"> · step ${view.step_number}: ${view.step_name}</span>`}</p>
      ${!over && html`<ol class="pksteps" aria-label="The steps of a round">${STEPS.map(([n, label]) => html`<li key=${n}
        class=${!over && view.step_number === n ? 'now' : ''} aria-current=${!over && view.step_number === n ? 'step' : undefined}
        title=${label}><span class="pkstep-n">${n}</span><span class="pkstep-label">${label}</span></li>`)}</ol>`}
      ${!over && html`<p class="muted pkfacts">${view.piker !== null && view.piker !== undefined ? html`Piker: <strong>${name(view.piker)}</strong> · ` : ''}
        First player: ${name(view.first_player)} · deck ${plural(view.deck, 'card')}</p>`}
    </div>

    ${mine && decisionKind === 'secure' && html`<${SecureDecision} view=${view} legal=${legal} act=${act} busy=${busy} name=${name} />`}
    ${mine && tipping && html`<${InsiderTipDecision} view=${view} legal=${legal} act=${act} busy=${busy} picks=${picks} setPicks=${setPicks} />`}
    ${mine && ['extra_capital', 'bull_run', 'hostile_takeover', 'extra_card'].includes(view.step) && legal.length > 0
      && html`<${SimpleDecision} view=${view} legal=${legal} act=${act} busy=${busy} name=${name} />`}
    ${mine && !over && html`<${DicePicker} dice=${myDice} chosen=${pips} setChosen=${setChosen} busy=${busy || !placing}
      round=${view.round} status=${status} />`}
    <${ErrorNote} error=${error} />

    ${!over && html`<section class="market" aria-labelledby="market-title">
      <h2 id="market-title">The market <span class="muted market-rule">· highest pips wins each card</span></h2>
      <ul class="market-slots">${view.market.map((slot) => html`<${MarketSlot} key=${slot.slot} slot=${slot} name=${name} me=${me}
        placeButton=${placeButton(slot.slot, `card ${slot.slot + 1}`)} tipPick=${tipPick(slot)} />`)}
        <${AfterMarket} am=${view.after_market} name=${name} placeButton=${placeButton('am', 'the After Market')} /></ul>
    </section>`}

    ${over && view.final && html`<${FinalScores} view=${view} name=${name} me=${me} />`}
    <ul class="pkplayers" aria-label="Players">${ordered.map((p) => html`<${PlayerPanel} key=${p.seat} player=${p} view=${view}
      name=${name} me=${me} over=${over} />`)}</ul>
    ${view.history.length > 0 && html`<details class="pkhistory"><summary>Rounds so far (${view.history.length})</summary>
      <div class="table-scroll" tabindex="0" role="region" aria-label="Rounds so far"><table class="score-table"><thead><tr><th scope="col">Round</th>
        ${view.players.map((p) => html`<th scope="col" class="num" key=${p.seat}>${name(p.seat)}</th>`)}<th scope="col">Piker</th></tr></thead>
        <tbody>${view.history.map((h) => html`<tr key=${h.round}><th scope="row">${h.round}</th>
          ${h.victory_points_on_table.map((vp, s) => html`<td class="num" key=${s}>${vp} VP${h.won_a_card[s] ? '' : ' · no card'}</td>`)}
          <td>${h.piker !== null && h.piker !== undefined ? name(h.piker) : '—'}</td></tr>`)}</tbody></table></div>
    </details>`}
  </div>`;
}

// ---------------------------------------------------------------------------------------------------- the module

function describe(event, { name, me }) {
  const who = name(event.seat);
  switch (event.type) {
    case 'dice_rolled':
      return event.your_dice
        ? `Round ${event.round}: you rolled ${event.your_dice.join(', ')} behind your screen.`
        : `Round ${event.round}: everyone rolled their dice in secret.`;
    case 'invest_started':
      return `Invest: ${name(event.first_player)} ${event.first_player === me ? 'place' : 'places'} the first die.`;
    case 'die_placed':
      return `${who} placed a ${event.pips} on ${event.on === 'card' ? `card ${event.slot + 1}` : 'the After Market'}.`;
    case 'card_discarded':
      return `Nobody bid on card ${event.slot + 1} (${TIER_NAMES[event.tier]}): discarded face down.`;
    case 'card_won': {
      const rerolls = event.tie_rerolls && event.tie_rerolls.length ? ' after a tie-breaking reroll' : '';
      return `${who} won card ${event.slot + 1}${rerolls}: ${cardText(event.card)}.`;
    }
    case 'volatility_kept':
      return `${who} keeps ${event.card.name}, played ${event.when}.`;
    case 'volatility_played': {
      const card = event.card.name;
      if (event.seen) return `Insider Tip: you saw ${event.seen.map((s) => `card ${s.slot + 1}, ${cardText(s.card)}`).join(' and ')}.`;
      if (event.slots) return `${who} played Insider Tip and looked at cards ${event.slots.map((s) => s + 1).join(' and ')}.`;
      if (event.discarded) {
        return event.discarded.length
          ? `${who} won Margin Call: ${event.discarded.map((d) => `${name(d.seat)} discarded ${cardText(d.card)}`).join('; ')}.`
          : `${who} won Margin Call, but nobody held two unsecured cards.`;
      }
      if (event.victory_points !== undefined) return `${who} won a Dividend: ${event.victory_points} victory points.`;
      if ('secured' in event) return event.secured ? `${who}'s Bull Run secured ${cardText(event.secured)} for free.` : `${who} won Bull Run with no card to secure.`;
      if (event.taken) return `${who} played Hostile Takeover and took ${cardText(event.taken)} from ${name(event.from)}.`;
      if (event.effect) return `${who} played ${card}: ${event.effect}.`;
      return `${who} played ${card}.`;
    }
    case 'card_kept':
      return `${who} kept ${event.card} for later.`;
    case 'after_market_opened':
      return event.deciding.length
        ? `The After Market: ${listNames(event.deciding.map(name))} may secure cards.`
        : 'The After Market: nobody can secure anything this round.';
    case 'securing_chosen':
      return event.choice ? null : null; // the reveal tells it; my own choice shows in the panel
    case 'securing_finished':
      return event.seat === me ? 'You finished securing.' : `${who} has chosen.`;
    case 'securing_revealed': {
      const parts = event.players.filter((p) => p.secured.length)
        .map((p) => `${name(p.seat)} secured ${p.secured.map((s) => cardText(s.card)).join(' and ')}`);
      return parts.length ? `Revealed: ${parts.join('; ')}.` : 'Revealed: nobody secured a card.';
    }
    case 'market_refilled':
      return `A new market of ${plural(event.tiers.length, 'card')} is dealt face down.`;
    case 'piker_taken':
      return `${who} ${event.seat === me ? 'have' : 'has'} the fewest victory points and ${event.seat === me ? 'take' : 'takes'} the Piker card.`;
    case 'extra_card':
      return event.added ? `${who} added a face-down ${TIER_NAMES[event.tier]} card to the market.` : `${who} added no extra card.`;
    case 'round_started':
      return `Round ${event.round} begins; ${name(event.first_player)} ${event.first_player === me ? 'are' : 'is'} first player.`;
    case 'game_end': {
      const winner = event.placings.indexOf(1);
      if (winner < 0) return 'The game is over.';
      const tie = event.roll_off && event.roll_off.length ? ' after a roll-off for the tie' : '';
      return `${name(winner)} ${winner === me ? 'win' : 'wins'} the game with ${event.scores[winner].total} VP secured${tie}.`;
    }
    default:
      return null;
  }
}

function seatInfo(view, seat) {
  const p = view.players[seat];
  if (!p) return null;
  return html`<span class="seat-piker"><span title="Secured cards, Dividends and set bonuses: what scores"><strong><${CountUp}
      value=${p.secured_score} /></strong> pts<span class="wide-only"> secured</span></span>${' '}
    ${p.unsecured.length > 0 && html`<span class="seat-unsecured" title="Unsecured cards score nothing unless secured">· ${unsecuredPoints(p)} VP unsecured</span>`}
    ${view.step === 'invest' && html`<span class="seat-dice">· ${plural(p.unplaced_dice, 'die', 'dice')}<span class="wide-only"> left</span></span>`}
    ${p.is_piker && html`<span class="tag tag-piker">Piker</span>`}</span>`;
}

function turnHint(view, legal) {
  switch (view.step) {
    case 'invest': return 'Choose one of your dice, then a market card or an After Market spot.';
    case 'after_market': return 'Secure your cards with your After Market dice, then finish.';
    case 'insider_tip': return 'Insider Tip: look at two face-down cards, or keep it.';
    case 'extra_capital': return 'Extra Capital: roll one extra die this round, or keep it.';
    case 'bull_run': return 'Bull Run: choose the card it secures.';
    case 'hostile_takeover': return 'Hostile Takeover: take an opponent\'s unsecured card, or keep it.';
    case 'extra_card': return 'You are the Piker: add an extra card to the market, or not.';
    default: return legal.length ? capital(view.step_name || '') : null;
  }
}

function art() {
  return html`<span class="art-piker"><${PikerCard} tier="blue_chip" size="sm" /><${PikerCard} tier="speculative" size="sm" />
    <${PikerCard} card=${{ kind: 'investment', sector: 'tech', tier: 'growth', victory_points: 4, secure_value: 8 }} size="sm" /></span>`;
}

export default {
  name: 'piker',
  title: 'The Piker',
  tagline: 'Bid secret dice on face-down investments, secure what you win, and do not end up the Piker.',
  art,
  options: [],
  Table: PikerTable,
  describe,
  seatInfo,
  turnHint,
  scoreTitle: 'Final score',
  scoreLabel: (score) => plural(score, 'point'),
};
