/** The most of an unread request body read and dropped before an error answer, and for how long. */
const DRAIN_MAX_BYTES = 32 * 1024 * 1024;
const DRAIN_MAX_MS = 15_000;
/**
 * Reads and drops what is left of a request body, up to a bound, before an error is answered. A
 * client that sends its whole body before reading (no `Expect: 100-continue`, as most do) would
 * otherwise hit a closed connection (EPIPE) and never see the error. Past the bound, the answer
 * goes at once and the connection closes.
 */
export function drainBody(raw) {
    if (raw.complete || raw.destroyed)
        return Promise.resolve();
    const declared = Number(raw.headers['content-length']);
    if (Number.isFinite(declared) && declared > DRAIN_MAX_BYTES)
        return Promise.resolve();
    return new Promise((resolve) => {
        let seen = 0;
        const done = () => {
            clearTimeout(timer);
            raw.off('data', onData);
            raw.off('end', done);
            raw.off('error', done);
            raw.off('close', done);
            resolve();
        };
        const onData = (chunk) => {
            seen += chunk.length;
            if (seen > DRAIN_MAX_BYTES)
                done();
        };
        const timer = setTimeout(done, DRAIN_MAX_MS);
        raw.on('data', onData);
        raw.once('end', done);
        raw.once('error', done);
        raw.once('close', done);
        raw.resume();
    });
}
//# sourceMappingURL=drain-body.js.map