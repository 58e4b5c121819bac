// How to play: one dialog per game, opened from the lobby's game cards, the settings screens and the table's header.
// The words are data (static/js/help/<game>.js); this module draws them, with the pictures the tables draw (the same
// components, so a card looks the same here and in play) and the rule numbers the server tells: seat counts and
// option defaults from /api/games, the table's own numbers from its view when opened at a table.
import { get } from '../api.js';
import { gameModule } from '../games/index.js';
import { PipDie } from '../games/parts.js';
import { Card as PikaCard } from '../games/pika.js';
import { PlayingCard } from '../games/stakes.js';
import { CardArt, DieFace } from '../games/kapern.js';
import { PikerCard } from '../games/piker.js';
import { html, useEffect, useLayoutEffect, useRef, useState } from '../lib.js';
import { number } from '../ui.js';
import kapern from './kapern.js';
import pika from './pika.js';
import piker from './piker.js';
import stakes from './stakes.js';

export const HELP = { pika, stakes, kapern, piker };

let gamesList = null; // /api/games, asked once per page when a dialog opened without the game's entry

/** The rule numbers for this game: the rules page's, then the server's (the game's entry, the table's view). */
export function helpNumbers(help, entry, view) {
  let numbers = { ...help.numbers };
  if (entry) numbers = { ...numbers, min_seats: entry.min_seats, max_seats: entry.max_seats, ...(entry.options || {}) };
  if (view && help.fromView) {
    const told = help.fromView(view);
    for (const [key, value] of Object.entries(told)) if (value !== undefined && value !== null) numbers[key] = value;
  }
  return help.derive ? { ...numbers, ...help.derive(numbers) } : numbers;
}

/** "{target} points" with the numbers filled in (thousands grouped), and *words* in bold. */
function Text({ text, numbers }) {
  const filled = text.replace(/\{(\w+)\}/g, (whole, key) => {
    const value = numbers[key];
    if (value === undefined || value === null) return whole;
    return typeof value === 'number' ? number(value) : String(value);
  });
  return filled.split(/\*([^*]+)\*/).map((part, i) => (i % 2 ? html`<strong key=${i}>${part}</strong>` : part));
}

/** One picture, drawn by the game's own component. Decorative: the words beside it say everything it shows. */
function Picture({ pic }) {
  if (pic.pika) return html`<${PikaCard} name=${pic.pika} size="sm" />`;
  if (pic.card) return html`<${PlayingCard} name=${pic.card} size="sm" />`;
  if (pic.die) return html`<${PipDie} value=${pic.die} size="md" />`;
  if (pic.face) return html`<${DieFace} face=${pic.face} />`;
  if (pic.kcard) return html`<${CardArt} card=${{ id: pic.kcard, name: pic.name }} />`;
  if (pic.piker) return html`<${PikerCard} card=${pic.piker} size="sm" secured=${pic.secured} />`;
  if (pic.back) return html`<${PikerCard} tier=${pic.back} size="sm" />`;
  return null;
}

function Pictures({ pics }) {
  if (!pics || !pics.length) return null;
  return html`<span class="help-pics" aria-hidden="true">${pics.map((pic, i) => html`<${Picture} key=${i} pic=${pic} />`)}</span>`;
}

function Block({ block, numbers }) {
  const text = (t) => html`<${Text} text=${t} numbers=${numbers} />`;
  if (typeof block === 'string') return html`<p>${text(block)}</p>`;
  if (block.list) return html`<ul class="help-list">${block.list.map((t, i) => html`<li key=${i}>${text(t)}</li>`)}</ul>`;
  if (block.steps) return html`<ol class="help-steps">${block.steps.map((t, i) => html`<li key=${i}>${text(t)}</li>`)}</ol>`;
  if (block.pics) return html`<div class="help-row"><${Pictures} pics=${block.pics} /></div>`;
  if (block.items) {
    return html`<ul class="help-items">${block.items.map((item, i) => html`<li key=${i} class="help-item">
      <${Pictures} pics=${item.pics} />
      <span class="help-item-words"><strong class="help-item-name">${item.name}</strong> ${text(item.text)}</span>
    </li>`)}</ul>`;
  }
  if (block.table) {
    const { caption, head, rows } = block.table;
    // Wider than a phone it scrolls sideways: focusable, so the keyboard scrolls it too.
    return html`<div class="help-table-wrap" tabindex="0" role="region" aria-label=${caption}><table class="help-table">
      <caption>${caption}</caption>
      <thead><tr>${head.map((h, i) => html`<th key=${i} scope="col">${h}</th>`)}</tr></thead>
      <tbody>${rows.map((row, r) => html`<tr key=${r}>${row.map((cell, i) => (i === 0
        ? html`<th key=${i} scope="row">${cell}</th>` : html`<td key=${i}>${cell}</td>`))}</tr>`)}</tbody>
    </table></div>`;
  }
  if (block.example) {
    return html`<div class="help-example"><${Pictures} pics=${block.example.pics} />
      <p><strong>Example.</strong> ${text(block.example.text)}</p></div>`;
  }
  return null;
}

const FOCUSABLE = 'button:not([disabled]), a[href], [tabindex]:not([tabindex="-1"])';

/**
 * The rules of one game in a modal dialog: the page behind is inert (the table goes on playing underneath, and its
 * own focus moves cannot pull the focus out), Tab and Shift+Tab stay inside, Escape or Close shuts it and the focus
 * goes back to where it was.
 */
export function HelpDialog({ game, entry, view, onClose }) {
  const help = HELP[game];
  const module = gameModule(game);
  const dialog = useRef(null);
  const body = useRef(null);
  const [listed, setListed] = useState(entry || null);

  useEffect(() => {
    if (entry) return;
    gamesList = gamesList || get('/api/games').catch(() => {
      gamesList = null; // the rules page's numbers stand in; ask again next time
      return { games: [] };
    });
    let alive = true;
    gamesList.then((data) => alive && setListed((data.games || []).find((g) => g.name === game) || null));
    return () => {
      alive = false;
    };
  }, [game, entry]);

  useLayoutEffect(() => {
    const opener = document.activeElement;
    const box = dialog.current;
    if (!box.open) box.showModal();
    body.current.focus();
    return () => {
      if (box.open) box.close();
      if (opener && opener.isConnected && typeof opener.focus === 'function') opener.focus();
    };
  }, []);

  const keys = (event) => {
    if (event.key !== 'Tab') return;
    const inside = [...dialog.current.querySelectorAll(FOCUSABLE)];
    if (!inside.length) return;
    const first = inside[0];
    const last = inside[inside.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  };
  const cancel = (event) => {
    event.preventDefault(); // Escape: close through the component, so its state and the focus follow
    onClose();
  };

  if (!help || !module) return null;
  const numbers = helpNumbers(help, listed, view);
  const titleId = `help-${game}-title`;
  return html`<dialog class="help-dialog" ref=${dialog} aria-labelledby=${titleId} onKeyDown=${keys}
      onCancel=${cancel} onClose=${onClose} data-help=${game}>
    <header class="help-head">
      <h2 id=${titleId}>How to play ${module.title}</h2>
      <button type="button" class="btn btn-small help-close" onClick=${onClose} aria-label="Close How to play">
        <span aria-hidden="true">×</span> Close</button>
    </header>
    <div class="help-body" ref=${body} tabindex="0" role="region" aria-labelledby=${titleId}>
      ${help.sections.map((section, i) => html`<section key=${i} class="help-section"
          aria-labelledby=${`${titleId}-${i}`}>
        <h3 id=${`${titleId}-${i}`}>${section.title}</h3>
        ${section.blocks.map((block, b) => html`<${Block} key=${b} block=${block} numbers=${numbers} />`)}
      </section>`)}
    </div>
  </dialog>`;
}

/** The button that opens a game's How to play (and the dialog while it is open). */
export function HelpButton({ game, entry, view, label, class: cls = 'btn', children }) {
  const [open, setOpen] = useState(false);
  const module = gameModule(game);
  if (!HELP[game] || !module) return null;
  return html`<button type="button" class=${`${cls} help-open`} aria-haspopup="dialog"
      aria-label=${label || `How to play ${module.title}`} onClick=${() => setOpen(true)}>
      ${children || 'How to play'}</button>
    ${open && html`<${HelpDialog} game=${game} entry=${entry} view=${view} onClose=${() => setOpen(false)} />`}`;
}
