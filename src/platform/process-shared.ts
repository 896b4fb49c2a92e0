/** How long an instance no holder holds is kept for the next one (servers of a test file start within a second of each other). */
const LINGER_MS = 5000;

/**
 * One instance per process of something costly to start (a worker thread, a child process), shared by
 * the holders that ask for it: made at the first hold, kept while held, and closed `lingerMs` after the
 * last holder let go unless held again meanwhile (that timer does not keep the process alive). Servers
 * started one after the other in one process with `shareWorkers` (startParaph; a test process starts
 * dozens) so find the artifact worker and the PDF reader started and warm, where each would start its own.
 */
export class ProcessShared<T extends { close(): Promise<void> }> {
  readonly #create: () => T;
  readonly #lingerMs: number;
  #value: T | undefined;
  #holders = 0;
  #linger: NodeJS.Timeout | undefined;

  constructor(create: () => T, lingerMs = LINGER_MS) {
    this.#create = create;
    this.#lingerMs = lingerMs;
  }

  /** A hold on the instance; `closed` is the error its calls get once it is released. */
  hold(closed: () => Error): Hold<T> {
    clearTimeout(this.#linger);
    this.#value ??= this.#create();
    this.#holders += 1;
    return new Hold(this.#value, closed, () => this.#release());
  }

  #release(): void {
    this.#holders -= 1;
    if (this.#holders > 0) return;
    const value = this.#value;
    this.#linger = setTimeout(() => {
      if (this.#holders > 0 || this.#value !== value) return;
      this.#value = undefined;
      void value?.close();
    }, this.#lingerMs);
    this.#linger.unref();
  }
}

/**
 * A holder's share of the instance. Released, it fails its own calls still unanswered and refuses new
 * ones, as closing an instance of its own would; the instance goes on with the other holders' calls.
 */
export class Hold<T> {
  readonly value: T;
  readonly #closed: () => Error;
  readonly #onRelease: () => void;
  readonly #pending = new Set<(error: Error) => void>();
  #released = false;

  constructor(value: T, closed: () => Error, onRelease: () => void) {
    this.value = value;
    this.#closed = closed;
    this.#onRelease = onRelease;
  }

  get released(): boolean {
    return this.#released;
  }

  /** The call's answer, or the `closed` error once the hold is released before it comes. */
  run<R>(call: (value: T) => Promise<R>): Promise<R> {
    if (this.#released) return Promise.reject(this.#closed());
    return new Promise<R>((resolve, reject) => {
      this.#pending.add(reject);
      call(this.value)
        .then(resolve, reject)
        .finally(() => this.#pending.delete(reject));
    });
  }

  release(): void {
    if (this.#released) return;
    this.#released = true;
    for (const reject of this.#pending) reject(this.#closed());
    this.#pending.clear();
    this.#onRelease();
  }
}
