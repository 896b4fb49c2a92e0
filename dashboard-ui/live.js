// @ts-check
// Live updates by polling: a view asks for `every(ms, fn)`; the router stops it when the view changes.
// (Server-sent events would need the token in a URL: an EventSource cannot send a header.)
import { Unauthorized } from './api.js';

/** @type {number[]} */
let timers = [];

/**
 * Runs `fn` every `ms` milliseconds while the current view is shown (never two runs at once).
 * @param {number} ms
 * @param {() => Promise<void>} fn
 */
export function every(ms, fn) {
  let running = false;
  const id = window.setInterval(async () => {
    if (running || document.hidden) return;
    running = true;
    try {
      await fn();
    } catch (error) {
      // A rotated token sends the page back to the sign-in field; anything else, the next round tries again.
      if (error instanceof Unauthorized) window.dispatchEvent(new CustomEvent('dashboard:unauthorized'));
    } finally {
      running = false;
    }
  }, ms);
  timers.push(id);
}

/**
 * Polls `load` every `ms` while the view is shown and hands `onChange` each answer that differs from
 * the last one seen (`initial` first). Answers a function that records a value the view got another
 * way (after one of its own actions), so the next poll does not draw it again.
 * @template T
 * @param {number} ms
 * @param {T} initial
 * @param {() => Promise<T>} load
 * @param {(next: T) => void} onChange
 * @returns {(value: T) => void}
 */
export function everyChange(ms, initial, load, onChange) {
  let seen = JSON.stringify(initial);
  every(ms, async () => {
    const next = await load();
    const json = JSON.stringify(next);
    if (json === seen) return;
    seen = json;
    onChange(next);
  });
  return (value) => {
    seen = JSON.stringify(value);
  };
}

/** Stops every poll of the view being left. */
export function stopAll() {
  for (const id of timers) window.clearInterval(id);
  timers = [];
}

/** How often views poll. */
export const POLL_MS = 2000;
