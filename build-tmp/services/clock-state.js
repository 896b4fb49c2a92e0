import { isoTime } from '../clock.js';
export function clockState(ctx) {
    return { now: isoTime(ctx.clock.now()), offset_seconds: Math.floor(ctx.clock.offsetMs() / 1000) };
}
//# sourceMappingURL=clock-state.js.map