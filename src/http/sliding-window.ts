/**
 * A sliding-window log: at most `limit` events per `windowMs` for each key, on an injected clock
 * (the sandbox clock, so advancing it also ends a window).
 */
export interface WindowVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the oldest counted event leaves the window (0 when allowed). */
  retryAfterSeconds: number;
}

export class SlidingWindow {
  private readonly events = new Map<string, number[]>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
  ) {}

  consume(key: string, now: number): WindowVerdict {
    const kept = (this.events.get(key) ?? []).filter((t) => t > now - this.windowMs);
    if (kept.length >= this.limit) {
      this.events.set(key, kept);
      const oldest = kept[0] ?? now;
      return { allowed: false, limit: this.limit, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000)) };
    }
    kept.push(now);
    this.events.set(key, kept);
    return { allowed: true, limit: this.limit, remaining: this.limit - kept.length, retryAfterSeconds: 0 };
  }
}
