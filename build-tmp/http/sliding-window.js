export class SlidingWindow {
    limit;
    windowMs;
    events = new Map();
    constructor(limit, windowMs) {
        this.limit = limit;
        this.windowMs = windowMs;
    }
    consume(key, now) {
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
//# sourceMappingURL=sliding-window.js.map