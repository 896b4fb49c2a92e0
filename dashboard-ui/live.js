// Live updates by polling: a view asks for `every(ms, fn)`; the router stops it when the view changes.
// (Server-sent events would need the token in a URL: an EventSource cannot send a header.)
import { Unauthorized } from './api.js';

/** @type {number[]} */
let timers = [];

/** Runs `fn` every `ms` milliseconds while the current view is shown (never two runs at once). */
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

/** Stops every poll of the view being left. */
export function stopAll() {
  for (const id of timers) window.clearInterval(id);
  timers = [];
}

/** How often views poll. */
export const POLL_MS = 2000;
