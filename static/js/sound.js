// The table's sounds, made with WebAudio (no audio files): your turn, a card played, a roll, a stack landing on you,
// the end of the game. Muting is remembered in localStorage. A browser lets a page make sound only after the person
// has touched it, so the audio context is created (or resumed) on the first pointer or key press.
import { useEffect, useState } from './lib.js';

const MUTE_KEY = 'tablestakes.sound';
let context = null;
let listeners = [];

export function isMuted() {
  try {
    return localStorage.getItem(MUTE_KEY) === 'off';
  } catch {
    return false;
  }
}

export function setMuted(muted) {
  try {
    localStorage.setItem(MUTE_KEY, muted ? 'off' : 'on');
  } catch {
    // a private window may refuse storage: the choice then lasts for this page only
  }
  listeners.forEach((listener) => listener(muted));
}

/** [muted, setMuted] for a toggle. */
export function useMuted() {
  const [muted, set] = useState(isMuted());
  useEffect(() => {
    listeners.push(set);
    return () => {
      listeners = listeners.filter((listener) => listener !== set);
    };
  }, []);
  return [muted, setMuted];
}

function audio() {
  if (context) return context;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  context = new Context();
  return context;
}

function unlock() {
  const ctx = audio();
  if (ctx && ctx.state === 'suspended') ctx.resume();
}
window.addEventListener('pointerdown', unlock, { capture: true, passive: true });
window.addEventListener('keydown', unlock, { capture: true });

// ---------------------------------------------------------------------------------------------------- voices

function tone(ctx, { at, freq, to, length, type = 'sine', volume = 0.18 }) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  if (to) osc.frequency.exponentialRampToValueAtTime(to, at + length);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

let noiseBuffer = null;
function noise(ctx, { at, length, freq, q = 1.2, volume = 0.35 }) {
  if (!noiseBuffer) {
    noiseBuffer = ctx.createBuffer(1, ctx.sampleRate * 0.5, ctx.sampleRate);
    const data = noiseBuffer.getChannelData(0);
    for (let i = 0; i < data.length; i += 1) data[i] = Math.random() * 2 - 1;
  }
  const source = ctx.createBufferSource();
  source.buffer = noiseBuffer;
  const filter = ctx.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = freq;
  filter.Q.value = q;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(volume, at);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  source.connect(filter).connect(gain).connect(ctx.destination);
  source.start(at, Math.random() * 0.3, length + 0.02);
}

const SOUNDS = {
  // two rising notes: a bell that says "you"
  turn: (ctx, t) => {
    tone(ctx, { at: t, freq: 659, length: 0.18, type: 'triangle' });
    tone(ctx, { at: t + 0.14, freq: 988, length: 0.3, type: 'triangle' });
  },
  // a card flicked onto the felt
  card: (ctx, t) => noise(ctx, { at: t, length: 0.07, freq: 2400, q: 0.9, volume: 0.3 }),
  // dice rattling: a few short knocks
  roll: (ctx, t) => {
    [0, 0.06, 0.13, 0.17, 0.26].forEach((d, i) => noise(ctx, { at: t + d, length: 0.04, freq: 900 + 300 * i, q: 3, volume: 0.4 }));
  },
  // a stack lands on you: a low falling warning
  stack: (ctx, t) => {
    tone(ctx, { at: t, freq: 330, to: 150, length: 0.35, type: 'sawtooth', volume: 0.09 });
    noise(ctx, { at: t, length: 0.12, freq: 300, q: 0.8, volume: 0.4 });
  },
  // the game ends: a short rising arpeggio
  end: (ctx, t) => {
    [523, 659, 784, 1047].forEach((freq, i) => tone(ctx, { at: t + i * 0.11, freq, length: 0.32, type: 'triangle', volume: 0.14 }));
  },
};

/**
 * Play one of the table's sounds unless muted. Every sound played is also announced as a `tablestakes:sound` event
 * on window (detail: the name), which is how the browser tests hear it.
 */
export function playSound(name) {
  if (isMuted() || !SOUNDS[name]) return;
  window.dispatchEvent(new CustomEvent('tablestakes:sound', { detail: name }));
  const ctx = audio();
  if (!ctx || ctx.state !== 'running') return; // nobody has touched the page yet: the browser would refuse
  SOUNDS[name](ctx, ctx.currentTime + 0.01);
}
