// Small pieces the dice-and-card tables share (Stakes, Piraten Kapern, The Piker): words, a d6 face, a dialog that
// takes the focus, and keeping the keyboard focus inside the game after a move removed the focused button.
import { html, useEffect, useLayoutEffect, useRef } from '../lib.js';

export const plural = (n, word, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;
export const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** "You", "Bot 1 and Bot 2", "You, Bot 1 and Bot 2". */
export function listNames(names) {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

// Pip positions on a 3x3 grid (0..8, row by row) for 1..6.
const PIPS = { 1: [4], 2: [2, 6], 3: [2, 4, 6], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

/** A six-sided die showing `value` pips; `label` is what a screen reader hears (the picture itself is hidden). */
export function PipDie({ value, size = 'md', tone = 'ivory', label, title }) {
  const spots = PIPS[value] || [];
  return html`<span class=${`pipdie pipdie-${size} pipdie-${tone}`} role=${label ? 'img' : undefined}
      aria-label=${label} aria-hidden=${label ? undefined : 'true'} title=${title}>
    ${Array.from({ length: 9 }, (_, i) => html`<span key=${i} class=${spots.includes(i) ? 'pip on' : 'pip'}></span>`)}
  </span>`;
}

/**
 * A decision that must be answered before play goes on (a Peek's order, a King's nudge, a card to choose). Not
 * modal: the table stays readable around it. The first button takes the focus when it opens.
 */
export function Decision({ id, title, children, tone = 'light' }) {
  const box = useRef(null);
  const focused = useRef(null); // the decision that already took the focus
  // After every render: the first enabled button takes the focus once per decision (its buttons may still be
  // disabled on the first render, while the move that raised the decision is being acknowledged).
  useLayoutEffect(() => {
    if (focused.current === id || !box.current) return;
    const first = box.current.querySelector('button:not([disabled])');
    if (!first) return;
    focused.current = id;
    first.focus({ preventScroll: false });
  });
  return html`<section class=${`decision decision-${tone}`} role="dialog" aria-modal="false"
      aria-labelledby=${`${id}-title`} ref=${box}>
    <h2 id=${`${id}-title`} class="decision-title">${title}</h2>
    ${children}
  </section>`;
}

/**
 * After a move of mine the button I pressed is often gone; put the focus back on the first control of the game area
 * (or the area itself) so keyboard players do not fall back to the top of the page. Returns `mark`, to call when
 * sending a move.
 */
export function useFocusKeeper(root, selector = 'button:not([disabled])') {
  const acted = useRef(false);
  useEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (!acted.current || !lost || !root.current) return;
    acted.current = false;
    const next = root.current.querySelector(selector) || root.current;
    next.focus({ preventScroll: true });
  });
  return () => {
    acted.current = true;
  };
}

/** One seat colour per seat (dice chips, markers); always shown with the seat's name or initial beside it. */
export const SEAT_COLOURS = ['#c62828', '#1565c0', '#2e7d32', '#7b1fa2', '#ef6c00', '#00838f'];
