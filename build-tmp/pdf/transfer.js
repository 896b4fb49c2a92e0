import { isMarkedAsUntransferable } from 'node:worker_threads';
/**
 * Bytes that may go in a `postMessage` transfer list: the view itself when it is the only view of a
 * whole, transferable ArrayBuffer, otherwise a copy in a fresh ArrayBuffer of its own.
 *
 * Node refuses to transfer (DataCloneError) an ArrayBuffer marked untransferable, such as the pool
 * under every `Buffer.allocUnsafe`/`Buffer.concat` result smaller than the pool (4 KiB on Node 22,
 * 64 KiB on Node 24 and later), a SharedArrayBuffer, and any buffer listed twice. Transferring the
 * buffer under a partial view would also detach bytes that belong to someone else. Only call this on
 * bytes the sender is done with: a transferred view is detached on its side.
 */
export function ownedBytes(view) {
    const { buffer } = view;
    const whole = view.byteOffset === 0 && view.byteLength === buffer.byteLength;
    if (buffer instanceof ArrayBuffer && whole && !isMarkedAsUntransferable(buffer))
        return view;
    return new Uint8Array(view);
}
/** The transfer list for views made by `ownedBytes`: each ArrayBuffer once. */
export function transferList(...views) {
    return [...new Set(views.map((view) => view.buffer))];
}
//# sourceMappingURL=transfer.js.map