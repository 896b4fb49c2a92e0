import { Buffer } from 'node:buffer';
import { forkPdfChild, stopChild } from './child-process.js';
const HEADER_WINDOW = 1024;
const EOF_WINDOW = 2048;
export function createPdfInspector(options = {}) {
    const timeoutMs = options.timeoutMs ?? 10_000;
    const maxMemoryMb = options.maxMemoryMb ?? 256;
    // setTimeout treats anything above 2^31 - 1 ms as 1 ms.
    if (!(timeoutMs > 0 && timeoutMs <= 2 ** 31 - 1))
        throw new RangeError('timeoutMs must be between 1 and 2147483647');
    if (!(maxMemoryMb > 0 && Number.isFinite(maxMemoryMb)))
        throw new RangeError('maxMemoryMb must be a positive number');
    return new ChildInspector(timeoutMs, maxMemoryMb);
}
// Cheap checks on the raw bytes, so junk and truncated uploads never reach the worker.
function precheck(bytes) {
    const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (buf.subarray(0, HEADER_WINDOW).indexOf('%PDF-') === -1) {
        return { ok: false, reason: 'not_pdf', message: 'document is not a PDF (missing %PDF- header)' };
    }
    if (buf.subarray(-EOF_WINDOW).indexOf('%%EOF') === -1) {
        return {
            ok: false,
            reason: 'incomplete',
            message: 'document is incomplete (no %%EOF marker at the end; the upload may have been truncated)',
        };
    }
    return undefined;
}
/**
 * A child that has read a document this large (or with this many pages) is replaced afterwards, so that
 * what its heap grew to is not kept while it waits for the next upload.
 */
const RECYCLE_BYTES = 2 * 1024 * 1024;
const RECYCLE_PAGES = 1000;
/**
 * Documents sent to the child before the one it reads is answered: sending the next one (through
 * the IPC socket, a few milliseconds for a few hundred KB) overlaps with reading this one. Only
 * documents under RECYCLE_BYTES are sent ahead, so a large one never waits inside a child that
 * is about to be replaced.
 */
const SEND_AHEAD = 2;
/**
 * Reads PDFs in a child process, one at a time, in the order they came. A child that runs past the
 * time budget, out of memory or crashes fails the job it was reading, and is replaced: the jobs sent
 * after it go to the new child. An idle child does not keep the server alive, and ends with it.
 */
class ChildInspector {
    #child;
    #ready = false;
    #queue = [];
    /** Sent to the child, in order; the first is the one it reads (and the only one with a timer). */
    #sent = [];
    #nextId = 1;
    #closed = false;
    #timeoutMs;
    #maxMemoryMb;
    constructor(timeoutMs, maxMemoryMb) {
        this.#timeoutMs = timeoutMs;
        this.#maxMemoryMb = maxMemoryMb;
    }
    inspect(bytes) {
        if (this.#closed)
            return Promise.reject(new Error('PDF inspector is closed'));
        const early = precheck(bytes);
        if (early)
            return Promise.resolve(early);
        // A private copy is what gets sent: later writes to the caller's buffer cannot change what is inspected.
        const copy = new Uint8Array(bytes);
        return new Promise((resolve, reject) => {
            this.#queue.push({ bytes: copy, resolve, reject });
            this.#pump();
        });
    }
    async close() {
        if (this.#closed)
            return;
        this.#closed = true;
        const child = this.#child;
        this.#child = undefined;
        const err = new Error('PDF inspector was closed');
        for (const running of this.#sent.splice(0)) {
            clearTimeout(running.timer);
            running.job.reject(err);
        }
        for (const job of this.#queue.splice(0))
            job.reject(err);
        if (child)
            await stopChild(child);
    }
    #pump() {
        if (this.#closed)
            return;
        const job = this.#queue[0];
        // An idle child must not keep the process alive.
        if (!job) {
            if (this.#sent.length === 0) {
                this.#child?.unref();
                this.#child?.channel?.unref();
            }
            return;
        }
        if (this.#sent.length > 0 && !this.#maySendAhead(job))
            return;
        let child = this.#child;
        try {
            child ??= this.#spawn();
        }
        catch (err) {
            return this.#failStart(undefined, err instanceof Error ? err : new Error(String(err)));
        }
        child.ref();
        child.channel?.ref();
        if (!this.#ready)
            return;
        this.#queue.shift();
        const running = { id: this.#nextId++, job, timer: undefined, size: job.bytes.byteLength };
        this.#sent.push(running);
        if (this.#sent.length === 1)
            this.#startTimer(child, running);
        child.send({ id: running.id, bytes: job.bytes }, (err) => {
            if (err)
                this.#abandon(child, tooComplex('the reader did not take the document'));
        });
        this.#pump();
    }
    #maySendAhead(next) {
        return this.#sent.length < SEND_AHEAD && next.bytes.byteLength <= RECYCLE_BYTES && this.#sent.every((r) => r.size <= RECYCLE_BYTES);
    }
    // The time budget runs from when the child starts reading the document, not from when it was sent.
    #startTimer(child, running) {
        running.timer = setTimeout(() => this.#abandon(child, tooComplex(`reading it took longer than ${duration(this.#timeoutMs)}`)), this.#timeoutMs);
    }
    // Jobs sent to a child that is going away go back to the front of the queue, in their order.
    #requeueSent() {
        for (const running of this.#sent.splice(0).reverse()) {
            clearTimeout(running.timer);
            this.#queue.unshift(running.job);
        }
    }
    #spawn() {
        const child = forkPdfChild('inspect-child', ['inspect'], this.#maxMemoryMb);
        this.#child = child;
        this.#ready = false;
        child.on('message', (reply) => {
            if (this.#child !== child)
                return;
            if (reply.type === 'ready') {
                this.#ready = true;
            }
            else if (this.#sent[0]?.id === reply.id) {
                const { timer, job, size } = this.#sent.shift();
                clearTimeout(timer);
                job.resolve(reply.result);
                if (size > RECYCLE_BYTES || (reply.result.ok && reply.result.pageCount > RECYCLE_PAGES)) {
                    this.#requeueSent();
                    this.#retire(child);
                }
                else if (this.#sent[0]) {
                    this.#startTimer(child, this.#sent[0]);
                }
            }
            this.#pump();
        });
        child.on('error', (err) => {
            if (this.#child !== child)
                return;
            if (!this.#ready)
                return this.#failStart(child, err);
            this.#abandon(child, tooComplex('the reader crashed'));
        });
        child.on('exit', (code, signal) => {
            if (this.#child !== child)
                return;
            if (!this.#ready)
                return this.#failStart(child, new Error(`PDF inspector exited with ${signal ?? `code ${code}`} while starting`));
            // V8 aborts the process when the heap limit is reached.
            const memory = signal === 'SIGABRT' || code === 134;
            this.#abandon(child, tooComplex(memory ? `it needs more than ${this.#maxMemoryMb} MB of memory` : 'the reader stopped'));
        });
        return child;
    }
    /** Stops a child between jobs; the next job starts a new one. */
    #retire(child) {
        if (this.#child === child) {
            this.#child = undefined;
            this.#ready = false;
        }
        child.kill('SIGKILL');
    }
    // Drops a child that timed out or crashed; the next job starts a fresh one.
    #abandon(child, result) {
        if (this.#child !== child)
            return;
        this.#retire(child);
        const reading = this.#sent.shift();
        if (reading) {
            clearTimeout(reading.timer);
            reading.job.resolve(result);
        }
        this.#requeueSent();
        this.#pump();
    }
    // A child that cannot even start would fail every job the same way: give
    // up on the queued ones rather than respawning in a loop.
    #failStart(child, err) {
        if (child)
            this.#retire(child);
        for (const job of this.#queue.splice(0))
            job.reject(err);
    }
}
function tooComplex(why) {
    return { ok: false, reason: 'too_complex', message: `document is too complex to inspect (${why})` };
}
function duration(ms) {
    return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}
//# sourceMappingURL=inspect.js.map