// Motion at the tables, with the Web Animations API (no library, nothing inline for the CSP to block): cards travel
// from where they were to where they go (FLIP: measure First and Last, Invert with a transform, Play it back to none),
// dice tumble, scores count up. With `prefers-reduced-motion: reduce` nothing moves: every helper here does nothing
// (and app.css switches off the CSS transitions and animations).
import { html, useLayoutEffect, useRef, useState } from './lib.js';

const reduceQuery = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null;

export function reducedMotion() {
  return Boolean(reduceQuery && reduceQuery.matches);
}

const EASE_OUT = 'cubic-bezier(0.2, 0.7, 0.3, 1)';

/**
 * Make `element` (already in its new place) travel from `from` (a DOMRect from before, e.g. the card in the hand or
 * the pile), growing or shrinking from that size to its own. `id` names the animation (document.getAnimations()).
 */
export function flyFrom(element, from, { duration = 420, id = 'card-flight' } = {}) {
  if (!element || !from || reducedMotion() || !element.animate) return null;
  const to = element.getBoundingClientRect();
  if (!to.width || !to.height) return null;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = Math.max(0.3, Math.min(3, from.width / to.width));
  if (Math.abs(dx) < 1 && Math.abs(dy) < 1) return null;
  return element.animate(
    [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: 'none' }],
    { duration, easing: EASE_OUT, id },
  );
}

/** A die tumbling as it lands. */
export function roll(element, { delay = 0 } = {}) {
  if (!element || reducedMotion() || !element.animate) return null;
  const turns = Math.random() < 0.5 ? -1 : 1;
  return element.animate(
    [
      { transform: `translateY(-14px) rotate(${turns * -200}deg) scale(0.75)`, opacity: 0.6 },
      { transform: `translateY(3px) rotate(${turns * 20}deg) scale(1.05)`, opacity: 1, offset: 0.7 },
      { transform: 'none', opacity: 1 },
    ],
    { duration: 520, delay, easing: EASE_OUT, id: 'die-roll', fill: 'backwards' },
  );
}

/** Something new arrives on the table (a placed die, a card in a row): it pops in. */
export function popIn(element, { id = 'pop-in' } = {}) {
  if (!element || reducedMotion() || !element.animate) return null;
  return element.animate([{ transform: 'scale(0.4)', opacity: 0 }, { transform: 'none', opacity: 1 }],
    { duration: 280, easing: EASE_OUT, id });
}

/**
 * FLIP for a list whose items move (a reordered hand): every child of `container` matched by `selector` and named by
 * `attribute` glides from where it was at the last render to where it is now. Positions are the layout's own
 * (offsetLeft/Top, which ignore transforms such as a card being dragged); `from` may give one item a starting point
 * of its own (the card just dropped starts under the pointer). While `paused` positions are only recorded.
 */
export function useFlip(container, { selector, attribute, paused = false, from = null }) {
  const last = useRef(new Map());
  useLayoutEffect(() => {
    const root = container.current;
    if (!root) return;
    const now = new Map();
    const items = root.querySelectorAll(selector);
    const animate = !paused && !reducedMotion();
    for (const item of items) {
      const key = item.getAttribute(attribute);
      const here = { x: item.offsetLeft, y: item.offsetTop };
      now.set(key, here);
      const custom = from && from.current && from.current.key === key ? from.current : null;
      const before = custom || last.current.get(key);
      if (!animate || !before || !item.animate) continue;
      const dx = before.x - here.x;
      const dy = before.y - here.y;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      item.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'none' }],
        { duration: 260, easing: EASE_OUT, id: 'hand-flip', composite: 'add' });
    }
    if (from) from.current = null;
    last.current = now;
  });
}

/** After every render where `key` changed: call `run(previousKey)` (to start an animation once, not on every render). */
export function useOnChange(key, run) {
  const previous = useRef(key);
  useLayoutEffect(() => {
    if (previous.current === key) return;
    const before = previous.current;
    previous.current = key;
    run(before);
  });
}

/** A number that counts up (or down) to `value` when it changes; at once with reduced motion. */
export function CountUp({ value, format = (n) => String(n), duration = 600 }) {
  const [shown, setShown] = useState(null); // the number on its way while counting, else null
  const from = useRef(value);
  useLayoutEffect(() => {
    const start = from.current;
    from.current = value;
    if (start === value || reducedMotion() || typeof requestAnimationFrame !== 'function') {
      setShown(null);
      return undefined;
    }
    setShown(start);
    const began = performance.now();
    let frame = requestAnimationFrame(function step(now) {
      const t = Math.min(1, (now - began) / duration);
      setShown(t < 1 ? Math.round(start + (value - start) * (1 - (1 - t) ** 3)) : null);
      if (t < 1) frame = requestAnimationFrame(step);
    });
    return () => cancelAnimationFrame(frame);
  }, [value]);
  return html`<span class="count-up">${format(shown === null ? value : shown)}</span>`;
}
