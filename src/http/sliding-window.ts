/**
 * A sliding-window log: at most `limit` events per `windowMs` for each key, on an injected clock
 * (the sandbox clock, so advancing it also ends a window).
 *
 * Only counted events are kept, and an event past the limit is refused, not counted: a key holds at
 * most `limit` timestamps, whatever the number of calls made before (with `--rate-limit off` calls
 * past the limit are answered but not stored). Expired events leave from the front of the key's
 * queue without copying it, so each call costs the same however many calls came before.
 */
export interface WindowVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted event leaves the window (0 when allowed). */
  retryAfterSeconds: number;
}

/** One key's counted events, oldest first, from `head` on (slots before it are spent). */
interface EventQueue {
  times: number[];
  head: number;
}

export class SlidingWindow {
  private readonly queues = new Map<string, EventQueue>();

  readonly limit: number;
  readonly windowMs: number;

  constructor(limit: number, windowMs: number) {
    this.limit = limit;
    this.windowMs = windowMs;
  }

  consume(key: string, now: number): WindowVerdict {
    let queue = this.queues.get(key);
    if (!queue) {
      queue = { times: [], head: 0 };
      this.queues.set(key, queue);
    }
    const { times } = queue;
    // The sandbox clock only moves forward, and events are pushed in order, so expired ones are first.
    while (queue.head < times.length && (times[queue.head] as number) <= now - this.windowMs) queue.head++;
    const counted = times.length - queue.head;
    if (counted >= this.limit) {
      const oldest = times[queue.head] ?? now;
      return { allowed: false, limit: this.limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
    }
    // Drop the spent slots once they outnumber the live ones: the array stays under 2 × limit.
    if (queue.head > counted) {
      times.splice(0, queue.head);
      queue.head = 0;
    }
    times.push(now);
    return { allowed: true, limit: this.limit, remaining: this.limit - (counted + 1), retryAfterSeconds: 0 };
  }

  /** Gives back an event counted at `at` (a call that turned out to do no work): the latest such. */
  refund(key: string, at: number): void {
    const queue = this.queues.get(key);
    if (!queue) return;
    const index = queue.times.lastIndexOf(at);
    if (index >= queue.head) queue.times.splice(index, 1);
  }

  /** How many timestamps the window holds for a key, spent slots included (for tests). */
  heldFor(key: string): number {
    return this.queues.get(key)?.times.length ?? 0;
  }
}
