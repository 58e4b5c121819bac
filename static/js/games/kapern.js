// The Piraten Kapern table (rules: shared/rules/kapern.md; view, actions and events: app/games/kapern/game.py and
// scoring.py). Turn up a card, roll eight dice, reroll two or more non-skull dice as often as you dare, stop to score;
// three skulls disqualify. Skull Island, sea battles, Treasure Island and the Guardian change the turn.
import { html, useEffect, useLayoutEffect, useRef, useState } from '../lib.js';
import { CountUp, roll } from '../motion.js';
import { playSound } from '../sound.js';
import { ErrorNote, number, signed } from '../ui.js';
import { listNames, plural, useFocusKeeper } from './parts.js';

export const FACES = ['skull', 'diamond', 'coin', 'monkey', 'parrot', 'saber'];
const FACE_WORD = { skull: 'skull', diamond: 'diamond', coin: 'gold coin', monkey: 'monkey', parrot: 'parrot', saber: 'saber' };
const FACE_PLURAL = { skull: 'skulls', diamond: 'diamonds', coin: 'gold coins', monkey: 'monkeys', parrot: 'parrots', saber: 'sabers' };
const CARD_NAMES = {
  treasure_island: 'Treasure Island', pirate: 'Pirate', guardian: 'Guardian', skull_1: 'Dead head, 1 skull',
  skull_2: 'Dead head, 2 skulls', sea_battle_2: 'Pirate vessel, 2 sabers', sea_battle_3: 'Pirate vessel, 3 sabers',
  sea_battle_4: 'Pirate vessel, 4 sabers', gold_coin: 'Gold coin', diamond: 'Diamond', animals: 'Animals',
  peace: 'Peace', zombie_attack: 'Zombie attack', shipwreck: 'Shipwreck',
};
const faceCount = (n, face) => `${n} ${n === 1 ? FACE_WORD[face] : FACE_PLURAL[face]}`;

/** "2 skulls, 3 monkeys, 1 saber", faces in the dice's own order of kinds. */
function facesSummary(faces) {
  const counts = {};
  for (const face of faces) counts[face] = (counts[face] || 0) + 1;
  return FACES.filter((f) => counts[f]).map((f) => faceCount(counts[f], f)).join(', ');
}

// ---------------------------------------------------------------------------------------------------- drawing

function FaceIcon({ face }) {
  switch (face) {
    case 'skull':
      return html`<svg viewBox="0 0 24 24" class="face-svg" aria-hidden="true">
        <path d="M12 2.5a8.2 8.2 0 0 0-8.2 8.2c0 2.7 1.3 4.6 3.2 5.7v3.3c0 .6.5 1 1 1h8c.5 0 1-.4 1-1v-3.3c1.9-1.1 3.2-3 3.2-5.7A8.2 8.2 0 0 0 12 2.5z" fill="#fafafa" stroke="#1b1b1b" stroke-width="1.4"/>
        <circle cx="8.7" cy="11" r="2.2" fill="#1b1b1b"/><circle cx="15.3" cy="11" r="2.2" fill="#1b1b1b"/>
        <path d="M12 13.6l-1.3 2.2h2.6z" fill="#1b1b1b"/>
        <path d="M10 20.6v-2.4M12 20.6v-2.4M14 20.6v-2.4" stroke="#1b1b1b" stroke-width="1.1"/></svg>`;
    case 'diamond':
      return html`<svg viewBox="0 0 24 24" class="face-svg" aria-hidden="true">
        <path d="M6.5 4h11l4.5 6.2L12 21.5 2 10.2z" fill="#4fc3f7" stroke="#01579b" stroke-width="1.4" stroke-linejoin="round"/>
        <path d="M2 10.2h20M9 4l-2 6.2L12 21.5l5-11.3L15 4" fill="none" stroke="#01579b" stroke-width="1"/></svg>`;
    case 'coin':
      return html`<svg viewBox="0 0 24 24" class="face-svg" aria-hidden="true">
        <circle cx="12" cy="12" r="9.5" fill="#ffca28" stroke="#7a5600" stroke-width="1.5"/>
        <circle cx="12" cy="12" r="6.5" fill="none" stroke="#7a5600" stroke-width="1.2"/>
        <path d="M12 8.2l1.2 2.5 2.7.3-2 1.9.5 2.7-2.4-1.3-2.4 1.3.5-2.7-2-1.9 2.7-.3z" fill="#7a5600"/></svg>`;
    case 'monkey':
      return html`<svg viewBox="0 0 24 24" class="face-svg" aria-hidden="true">
        <circle cx="4.6" cy="11" r="3" fill="#8d5a3b" stroke="#3e2415" stroke-width="1.1"/>
        <circle cx="19.4" cy="11" r="3" fill="#8d5a3b" stroke="#3e2415" stroke-width="1.1"/>
        <circle cx="12" cy="11.5" r="8" fill="#8d5a3b" stroke="#3e2415" stroke-width="1.3"/>
        <path d="M12 9.5c-3.4-2.6-6.2.2-5.2 3.5.6 2.1 1.8 5.5 5.2 5.5s4.6-3.4 5.2-5.5c1-3.3-1.8-6.1-5.2-3.5z" fill="#e7c9a9"/>
        <circle cx="9.6" cy="11.3" r="1.2" fill="#1b1b1b"/><circle cx="14.4" cy="11.3" r="1.2" fill="#1b1b1b"/>
        <path d="M10 15.3c1.2.9 2.8.9 4 0" fill="none" stroke="#3e2415" stroke-width="1.1" stroke-linecap="round"/></svg>`;
    case 'parrot':
      return html`<svg viewBox="0 0 24 24" class="face-svg" aria-hidden="true">
        <path d="M9 21c-1-5 0-9.5 3.5-12" fill="none" stroke="#1b5e20" stroke-width="3" stroke-linecap="round"/>
        <path d="M6.5 20.5c.5-6.5 2.5-11 6-13.5 2.6-1.8 6-1.6 7.3.6.8 1.4.1 2.7-1.4 3.2l-3.1 1c-2.9 1.3-4.9 4.5-5.6 8.7z" fill="#43a047" stroke="#1b5e20" stroke-width="1.2" stroke-linejoin="round"/>
        <path d="M18.8 7.2c1.6.2 2.9 1.4 2.8 3.2-.1 1.1-.8 1.9-1.7 2.2.3-1.2 0-2.3-1-3z" fill="#ffb300" stroke="#7a4f00" stroke-width="1"/>
        <circle cx="15.6" cy="7.6" r="1.1" fill="#1b1b1b"/>
        <path d="M13 4.5c.6-1.6 2.4-2.4 3.8-1.6" fill="none" stroke="#d32f2f" stroke-width="1.8" stroke-linecap="round"/></svg>`;
    case 'saber':
      return html`<svg viewBox="0 0 24 24" class="face-svg" aria-hidden="true">
        <path d="M20.5 2.5C15 6 10.5 10.5 7.5 15.5l1.9 1.2C12.8 12 16.8 7.2 20.5 2.5z" fill="#cfd8dc" stroke="#37474f" stroke-width="1.2" stroke-linejoin="round"/>
        <path d="M4.5 14.5l5 5" stroke="#8d6e00" stroke-width="2.2" stroke-linecap="round"/>
        <path d="M7.6 16.9l-3.8 3.8" stroke="#5d4037" stroke-width="2.6" stroke-linecap="round"/></svg>`;
    default:
      return html`<span class="face-unknown" aria-hidden="true">?</span>`;
  }
}

/** One die: its face drawn and named (colour and picture are never the only clue). */
export function DieFace({ face, tone }) {
  return html`<span class=${`kdie${face ? ` kdie-${face}` : ' kdie-blank'}${tone ? ` kdie-${tone}` : ''}`} aria-hidden="true">
    <span class="kdie-pic"><${FaceIcon} face=${face} /></span>
    ${face && html`<span class="kdie-word">${FACE_WORD[face]}</span>`}
  </span>`;
}

export function CardArt({ card, large }) {
  return html`<div class=${`kcard kcard-${card.id}${large ? ' kcard-large' : ''}`}>
    <span class="kcard-kicker">Pirate card</span>
    <strong class="kcard-name">${card.name}</strong>
    ${card.effect && html`<span class="kcard-effect">${card.effect}</span>`}
  </div>`;
}

function SkullMeter({ skulls, limit }) {
  return html`<span class="skull-meter" role="img" aria-label=${`${skulls.total} skulls (${skulls.dice} on dice, ${skulls.card} from the card)`}>
    ${Array.from({ length: Math.max(limit, skulls.total) }, (_, i) => html`<span key=${i}
      class=${`skull-slot${i < skulls.total ? ' full' : ''}${i < skulls.card ? ' from-card' : ''}`}><${FaceIcon} face="skull" /></span>`)}
  </span>`;
}

// ---------------------------------------------------------------------------------------------------- turn state

function Situation({ turn, who, mine }) {
  const notes = [];
  const card = turn.card;
  const skullLimit = turn.rules.skull_limit;
  if (turn.phase === 'skull_island') {
    notes.push(html`<p class="knote knote-island" key="island"><strong>Skull Island!</strong>${' '}
      ${mine ? 'Roll any dice: each roll must add a skull, or the turn ends.' : `${who} rolls on while each roll adds a skull.`}
      ${' '}Every opponent loses ${turn.rules.opponents_lose_per_skull} per skull.</p>`);
  }
  if (turn.phase === 'guardian_rescue') {
    notes.push(html`<p class="knote knote-danger" key="rescue"><strong>Third skull!</strong>${' '}
      ${mine ? 'The Guardian may reroll one skull (alone or with other dice). Otherwise you are disqualified.'
        : `${who} may use the Guardian to reroll a skull, or be disqualified.`}</p>`);
  }
  if (turn.guardian && turn.phase !== 'guardian_rescue') {
    notes.push(html`<p class="knote" key="guardian">Guardian: ${turn.guardian.available
      ? 'one skull may be rerolled this turn (select it with the dice to roll).' : 'used this turn.'}</p>`);
  }
  if (turn.sea_battle) {
    const sb = turn.sea_battle;
    const ok = sb.sabers >= sb.sabers_needed;
    notes.push(html`<p class=${`knote${ok ? ' knote-ok' : ''}`} key="sea">Sea battle: <strong>${sb.sabers} of ${sb.sabers_needed}</strong>${' '}
      sabers. ${ok ? `Stopping now wins the ${sb.bonus} bonus.` : `Stopping short or being disqualified loses ${sb.bonus}.`}</p>`);
  }
  if (turn.peace) {
    notes.push(html`<p class=${`knote${turn.peace.sabers ? ' knote-danger' : ' knote-ok'}`} key="peace">Peace:${' '}
      ${turn.peace.sabers ? `${plural(turn.peace.sabers, 'saber')} showing: each costs ${turn.rules.peace_loss_per_saber} when the turn ends.`
        : 'no saber showing: the score is doubled.'}</p>`);
  }
  if (turn.zombie_attack) {
    const z = turn.zombie_attack;
    notes.push(html`<p class="knote" key="zombie">Zombie attack: ${z.sabers} of ${z.sabers_needed} sabers. Keep rolling until
      every die shows a skull or a saber.</p>`);
  }
  if (turn.shipwreck) {
    notes.push(html`<p class="knote" key="ship">Shipwreck: ${plural(turn.shipwreck.rolls_left, 'roll')} left; only diamonds
      and gold coins score, ${turn.rules.shipwreck_points_each} each.</p>`);
  }
  return html`<div class="ksituation">
    <div class="kskulls"><span>Skulls</span> <${SkullMeter} skulls=${turn.skulls} limit=${skullLimit || 0} />
      <strong>${turn.skulls.total}${skullLimit ? ` of ${skullLimit}` : ''}</strong></div>
    ${notes}
  </div>`;
}

function ScoreLines({ result, title }) {
  return html`<div class="kscore">
    <p class="kscore-head">${title} <strong class=${result.points < 0 ? 'loss' : ''}>${signed(result.points)}</strong>
      ${result.opponents_each !== 0 && html`<span> · every opponent ${signed(result.opponents_each)}</span>`}</p>
    <ul class="kscore-lines">${result.lines.map((line, i) => html`<li key=${i}><span>${line.label}</span>
      ${line.points !== 0 && html`<span class="num">${signed(line.points)}</span>`}</li>`)}</ul>
  </div>`;
}

// ---------------------------------------------------------------------------------------------------- dice and moves

const key = (dice) => dice.slice().sort((a, b) => a - b).join(',');

function DiceArea({ turn, legal, mine, act, busy }) {
  const [chosen, setChosen] = useState([]);
  const rolls = legal.filter((a) => a.type === 'roll');
  const rollKeys = new Set(rolls.map((a) => key(a.dice)));
  const selectable = new Set(rolls.flatMap((a) => a.dice));
  const puts = new Map(legal.filter((a) => a.type === 'put_on_chest').map((a) => [a.die, a]));
  const takes = new Map(legal.filter((a) => a.type === 'take_from_chest').map((a) => [a.die, a]));
  const stop = legal.find((a) => a.type === 'stop');
  const first = turn.rolls === 0;
  const single = rolls.length === 1 ? rolls[0] : null;
  const scoring = turn.stop_now ? turn.stop_now.scoring_dice : [];

  // A new roll or a new turn clears the choice.
  useEffect(() => setChosen([]), [turn.number, turn.rolls, turn.phase, mine]);
  useEffect(() => {
    if (chosen.some((d) => !selectable.has(d))) setChosen(chosen.filter((d) => selectable.has(d)));
  }, [legal]);

  const toggle = (die) => setChosen(chosen.includes(die) ? chosen.filter((d) => d !== die) : [...chosen, die]);
  const chosenKey = key(chosen);
  const rollAction = rolls.find((a) => key(a.dice) === chosenKey);
  const free = turn.dice.filter((d) => d.state === 'free').map((d) => d.die);
  const onChest = turn.dice.filter((d) => d.state === 'chest');
  const shown = turn.dice.filter((d) => d.state !== 'chest');

  let why = '';
  if (mine && !first && !single && chosen.length && !rollAction) {
    const skulls = chosen.filter((d) => turn.dice[d].face === 'skull');
    if (skulls.length > turn.rules.guardian_skulls) why = `The Guardian rerolls ${plural(turn.rules.guardian_skulls, 'skull')} only.`;
    else if (turn.phase === 'guardian_rescue' && !skulls.length) why = 'With three skulls, only a reroll that includes one skull keeps you in the turn.';
    else if (chosen.length < turn.rules.fewest_to_reroll && !skulls.length) {
      why = `Choose at least ${plural(turn.rules.fewest_to_reroll, 'die', 'dice')}: a single die is never rerolled alone.`;
    }
    else why = 'Those dice cannot be rolled together.';
  }

  const dieLabel = (d) => {
    let text = d.face ? FACE_WORD[d.face] : 'not rolled';
    if (d.state === 'skull') text += ', locked';
    if (d.state === 'kept_saber') text += ', kept';
    if (d.state === 'chest') text += ', on Treasure Island';
    if (scoring[d.die]) text += ', scores';
    return `Die ${d.die + 1}: ${text}`;
  };

  const renderDie = (d) => {
    const canSelect = mine && !first && !single && selectable.has(d.die);
    const picked = chosen.includes(d.die);
    const tone = d.state === 'skull' ? 'locked' : d.state === 'kept_saber' ? 'kept' : scoring[d.die] ? 'scoring' : null;
    const put = mine ? puts.get(d.die) : null;
    const take = mine ? takes.get(d.die) : null;
    return html`<li key=${d.die} class=${`kslot${picked ? ' picked' : ''}`} data-die=${d.die} data-face=${d.face || ''}>
      ${canSelect
        ? html`<button type="button" class="kdie-button" aria-pressed=${picked ? 'true' : 'false'} disabled=${busy}
            aria-label=${`${dieLabel(d)}. ${picked ? 'Chosen to roll' : 'Choose to roll'}`} onClick=${() => toggle(d.die)}>
            <${DieFace} face=${d.face} tone=${tone} />${picked && html`<span class="kpick" aria-hidden="true">↻</span>`}</button>`
        : html`<span class="kdie-still" role="img" aria-label=${dieLabel(d)}><${DieFace} face=${d.face} tone=${tone} />
            ${d.state === 'skull' && html`<span class="klock" aria-hidden="true">locked</span>`}</span>`}
      ${put && html`<button type="button" class="btn btn-small kchest-btn" disabled=${busy}
        aria-label=${`Put die ${d.die + 1} (${FACE_WORD[d.face]}) on Treasure Island`} onClick=${() => act(put)}>To chest</button>`}
      ${take && html`<button type="button" class="btn btn-small kchest-btn" disabled=${busy}
        aria-label=${`Take die ${d.die + 1} (${FACE_WORD[d.face]}) back from Treasure Island`} onClick=${() => act(take)}>Take back</button>`}
    </li>`;
  };

  let stopLabel = 'Stop and score';
  if (turn.phase === 'guardian_rescue') stopLabel = 'Give up: disqualified';
  else if (turn.phase === 'skull_island') stopLabel = 'Leave Skull Island';
  else if (turn.stop_now) stopLabel = `Stop: ${signed(turn.stop_now.points)}`;

  // Treasure Island's chest comes under the moves: its buttons already sit under each die, and the moves stay in
  // reach on a phone.
  return html`<div class="kdice-area">
    <ul class="kdice" aria-label="The eight dice">${shown.map(renderDie)}</ul>
    ${mine && html`<div class="kcontrols" role="group" aria-label="Your move">
      ${first && single && html`<button type="button" class="btn btn-big btn-gold" disabled=${busy} onClick=${() => act(single)}>
        Roll the eight dice</button>`}
      ${!first && single && html`<button type="button" class="btn btn-big btn-gold" disabled=${busy} onClick=${() => act(single)}>
        Roll ${plural(single.dice.length, 'die', 'dice')}${turn.zombie_attack ? ' (every die without skull or saber)' : ''}</button>`}
      ${!first && !single && rolls.length > 0 && html`<button type="button" class="btn btn-big btn-gold"
          disabled=${busy || !rollAction} onClick=${() => rollAction && act(rollAction)}>
          ${chosen.length ? `Roll ${plural(chosen.length, 'die', 'dice')}` : 'Choose dice to roll'}</button>
        ${free.length > 1 && turn.phase !== 'guardian_rescue' && html`<button type="button" class="btn btn-small btn-ghost-felt" disabled=${busy}
          onClick=${() => setChosen(free.filter((d) => selectable.has(d)))}>Choose all free dice</button>`}
        ${chosen.length > 0 && html`<button type="button" class="btn btn-small btn-ghost-felt" onClick=${() => setChosen([])}>Clear</button>`}`}
      ${stop && html`<button type="button" class=${`btn btn-big${turn.phase === 'guardian_rescue' ? ' btn-danger' : ' btn-stop'}`}
        disabled=${busy} onClick=${() => act(stop)}>${stopLabel}</button>`}
      ${why && html`<p class="kwhy" role="status">${why}</p>`}
      ${!first && !single && rolls.length > 0 && !chosen.length && html`<p class="khelp">${turn.skull_island
        ? 'Tap the dice to roll (any number): the roll must add a skull.'
        : turn.phase === 'guardian_rescue' ? 'Tap one skull (and any other dice) to reroll it with the Guardian.'
        : `Tap the dice to reroll (${turn.rules.fewest_to_reroll} or more; skulls stay${turn.guardian?.available ? ', except one with the Guardian' : ''}).`}</p>`}
    </div>`}
    ${turn.treasure_island && html`<div class="kchest" aria-label="Treasure Island">
      <p class="kchest-title"><strong>Treasure Island</strong> <span class="muted">· dice here are not rolled and score even if you are disqualified</span></p>
      ${onChest.length ? html`<ul class="kdice kdice-chest">${onChest.map(renderDie)}</ul>`
        : html`<p class="muted">No dice on the chest.</p>`}
    </div>`}
  </div>`;
}

// ---------------------------------------------------------------------------------------------------- boards

function Scoreboard({ view, name, me, over }) {
  const end = view.end;
  const acting = over ? null : view.turn?.seat;
  return html`<section class="kboard" aria-labelledby="kboard-title">
    <h2 id="kboard-title">Scores <span class="muted">· first to ${number(view.target)}</span></h2>
    <ul class="kboard-list">
      ${view.scoreboard.map((row) => {
        const share = Math.max(0, Math.min(100, (100 * row.score) / view.target));
        const last = end.last_turns.includes(row.seat);
        return html`<li key=${row.seat} class=${`kboard-row${row.seat === me ? ' mine' : ''}${row.seat === acting ? ' acting' : ''}`}>
          <span class="kboard-name">${row.seat === acting && html`<span class="turn-mark" aria-hidden="true">▶ </span>`}${name(row.seat)}
            ${end.leader === row.seat && html`<span class="tag tag-turn">leader</span>`}
            ${last && html`<span class="tag tag-alert">last turn</span>`}</span>
          <span class="kboard-bar" aria-hidden="true"><span style=${`width:${share}%`}></span></span>
          <strong class=${`kboard-score num${row.score < 0 ? ' loss' : ''}`}><${CountUp} value=${row.score} format=${number} /></strong>
        </li>`;
      })}
    </ul>
    ${end.final_round && html`<p class="knote knote-final"><strong>Final round:</strong> ${name(end.leader)} ended a turn at${' '}
      ${number(view.scores[end.leader])}. ${end.last_turns.length
        ? `Last turns: ${listNames(end.last_turns.map(name))}.` : ''}
      ${end.leader_extra_turn ? ` ${name(end.leader)} was passed and takes one more turn.` : ''}</p>`}
    ${end.overtime && !over && html`<p class="knote knote-final">Nobody held ${number(view.target)} after the last turns: the next
      player to end a turn at ${number(view.target)} or more wins at once.</p>`}
    ${over && end.reason === 'pirate_magic' && html`<p class="knote knote-final">${name(end.winner)} won at once with Pirate magic.</p>`}
    <p class="muted kdeck">Deck: ${plural(view.deck.size, 'card')} left${view.deck.published_deck ? ' (the published 35-card deck)' : ''}.</p>
  </section>`;
}

function TurnRecord({ record, name, open }) {
  const dice = record.dice.filter(Boolean);
  return html`<details class="krecord" open=${open}>
    <summary><strong>${name(record.seat)}</strong> · ${CARD_NAMES[record.card] || record.card} ·${' '}
      <span class=${record.points < 0 ? 'loss' : record.points > 0 ? 'gain' : ''}>${record.summary}</span></summary>
    <p class="muted">Final dice: ${facesSummary(dice) || 'none'}${record.on_chest.some(Boolean) ? ` (${record.on_chest.filter(Boolean).length} on Treasure Island)` : ''}. ${record.reason ? `Ended: ${record.reason}.` : ''}</p>
    <${ScoreLines} result=${record} title="Turn result" />
  </details>`;
}

// ---------------------------------------------------------------------------------------------------- the table

/** After a roll the dice that were thrown (their face changed, or every die on a first roll) tumble, with a rattle. */
function useDiceRolls(turn, root) {
  const seen = useRef({ key: turn ? `${turn.number}:${turn.rolls}` : '', faces: turn ? turn.dice.map((d) => d.face) : [] });
  useLayoutEffect(() => {
    const key = turn ? `${turn.number}:${turn.rolls}` : '';
    const before = seen.current;
    seen.current = { key, faces: turn ? turn.dice.map((d) => d.face) : [] };
    if (key === before.key || !turn || !turn.rolls || !root.current) return;
    let thrown = 0;
    turn.dice.forEach((d, i) => {
      if (turn.rolls > 1 && before.faces[i] === d.face) return;
      roll(root.current.querySelector(`.kslot[data-die="${d.die}"] .kdie`), { delay: 40 * thrown });
      thrown += 1;
    });
    if (thrown) playSound('roll');
  });
}

function KapernTable({ view, legal, send, busy, error, me, name, over }) {
  const root = useRef(null);
  const mark = useFocusKeeper(root, '.kcontrols button:not([disabled]), .kdie-button:not([disabled])');
  const act = (action) => {
    if (busy || !action) return undefined;
    mark();
    return send(action);
  };
  const turn = view.turn;
  const mine = Boolean(turn) && turn.seat === me && legal.length > 0;
  useDiceRolls(turn, root);
  const who = turn ? name(turn.seat) : '';
  const recent = (view.recent_turns || []).slice().reverse();
  return html`<div class="felt kapern" ref=${root} tabindex="-1">
    ${turn && html`<div class="kturn">
      <${CardArt} card=${turn.card} large />
      <div class="kturn-side">
        <p class="kturn-who">${mine ? 'Your turn' : `${who}'s turn`} <span class="muted">· turn ${turn.number}${turn.rolls ? ` · roll ${turn.rolls}` : ''}</span></p>
        ${turn.rolls > 0 ? html`<${Situation} turn=${turn} who=${who} mine=${mine} />`
          : html`<p class="knote">${mine ? 'Roll all eight dice to begin.' : `${who} is about to roll.`}
              ${turn.skulls.card ? ` The card starts the turn with ${plural(turn.skulls.card, 'skull')}.` : ''}</p>`}
      </div>
    </div>`}
    ${turn && html`<${DiceArea} turn=${turn} legal=${mine ? legal : []} mine=${mine} act=${act} busy=${busy} />`}
    ${turn && turn.stop_now && html`<${ScoreLines} result=${turn.stop_now}
      title=${turn.phase === 'skull_island' ? (mine ? 'If you leave now:' : `If ${who} leaves now:`)
        : turn.phase === 'guardian_rescue' ? (mine ? 'If you give up now:' : `If ${who} gives up now:`)
        : mine ? 'If you stop now:' : `If ${who} stops now:`} />`}
    <${ErrorNote} error=${error} />
    <div class="kcolumns">
      <${Scoreboard} view=${view} name=${name} me=${me} over=${over} />
      <section class="krecent" aria-labelledby="krecent-title">
        <h2 id="krecent-title">Recent turns</h2>
        ${recent.length ? recent.map((r, i) => html`<${TurnRecord} key=${r.turn} record=${r} name=${name} open=${i === 0} />`)
          : html`<p class="muted">No turn has ended yet.</p>`}
      </section>
    </div>
  </div>`;
}

// ---------------------------------------------------------------------------------------------------- the module

function describe(event, { name, me }) {
  const who = name(event.seat);
  switch (event.type) {
    case 'card_turned':
      return `${who} turned up ${event.name}.`;
    case 'rolled':
      return `${who} rolled ${plural(event.dice.length, 'die', 'dice')}: ${facesSummary(event.faces)}${event.skulls ? ` (${plural(event.skulls, 'skull')} in all)` : ''}.`;
    case 'guardian_reroll':
      return `${who} used the Guardian to reroll a skull.`;
    case 'skull_island':
      return `${who} ${event.seat === me ? 'go' : 'goes'} to Skull Island with ${plural(event.skulls, 'skull')}!`;
    case 'guardian_rescue':
      return `${who} rolled a third skull: only the Guardian can save the turn.`;
    case 'put_on_chest':
      return `${who} put a ${FACE_WORD[event.face]} on Treasure Island.`;
    case 'take_from_chest':
      return `${who} took a ${FACE_WORD[event.face]} back from Treasure Island.`;
    case 'disqualified':
      return `${who} ${event.seat === me ? 'are' : 'is'} disqualified: ${plural(event.skulls, 'skull')}.`;
    case 'skull_island_penalty':
      return `Skull Island: every opponent of ${who === 'You' ? 'yours' : who} loses ${-event.per_opponent}.`;
    case 'turn_scored':
      return `${who}: ${event.summary}.`;
    case 'deck_reshuffled':
      return 'The pirate cards were reshuffled.';
    case 'final_round':
      return `${name(event.leader)} reached ${number(event.score)}: ${listNames(event.last_turns.map(name))} ${event.last_turns.length === 1 && event.last_turns[0] !== me ? 'takes' : 'take'} one last turn.`;
    case 'leader_extra_turn':
      return `${name(event.leader)} was passed and takes one more turn.`;
    case 'play_goes_on':
      return `Nobody holds ${number(event.target)} after the last turns: play goes on, and the next to end a turn at ${number(event.target)} wins.`;
    case 'game_end': {
      const winners = event.placings.map((place, seat) => (place === 1 ? seat : null)).filter((seat) => seat !== null);
      if (!winners.length) return 'The game is over.';
      const verb = winners.length === 1 && winners[0] !== me ? 'wins' : 'win';
      return `${listNames(winners.map(name))} ${verb} the game with ${number(event.scores[winners[0]])} points.`;
    }
    default:
      return null;
  }
}

function seatInfo(view, seat) {
  const score = view.scores ? view.scores[seat] : 0;
  const last = view.end && view.end.last_turns.includes(seat);
  return html`<span class="seat-kapern"><strong class=${score < 0 ? 'loss' : ''}><${CountUp} value=${score} format=${number} /></strong> pts${' '}
    ${last && html`<span class="tag tag-alert">last turn</span>`}</span>`;
}

function turnHint(view, legal) {
  const turn = view.turn;
  if (!turn) return null;
  if (turn.rolls === 0) return `${turn.card.name}: ${turn.card.effect}. Roll all eight dice.`;
  if (turn.phase === 'guardian_rescue') return 'Reroll one skull with the Guardian, or give up.';
  if (turn.phase === 'skull_island') return 'Roll again to add skulls, or leave Skull Island.';
  if (turn.zombie_attack) return 'Roll until every die shows a skull or a saber.';
  return legal.some((a) => a.type === 'stop') ? 'Choose dice to reroll, or stop and score.' : 'Roll.';
}

function art() {
  return html`<span class="art-kapern">${['skull', 'coin', 'parrot', 'saber', 'diamond'].map((f) => html`<${DieFace} key=${f} face=${f} />`)}</span>`;
}

export default {
  name: 'kapern',
  title: 'Piraten Kapern',
  tagline: 'Roll eight pirate dice, push your luck for sets of coins and diamonds, and never roll the third skull.',
  art,
  options: [
    {
      key: 'published_deck',
      label: 'Pirate cards',
      help: 'The full deck adds Peace, Zombie attack and Shipwreck (two each) to the published 35 cards.',
      choices: [[false, 'All 41 cards'], [true, 'The published 35 cards']],
      parse: (value) => value === 'true',
      describe: (value) => (value ? 'published 35-card deck' : '41-card deck'),
    },
  ],
  Table: KapernTable,
  describe,
  seatInfo,
  turnHint,
  scoreTitle: 'Points',
  scoreLabel: (score) => `${number(score)} points`,
};
