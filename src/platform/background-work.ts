/**
 * Work a context runs in the background (artifact generation, queued mail, the artifact worker's
 * warm-up): started without anyone awaiting it, but owned, so that `close()` can wait for it before the
 * database and the workers go, and a test can wait until nothing is left running.
 */
export interface BackgroundWork {
  /** Tracks `work` until it settles, and answers it. A rejection stays the caller's to handle. */
  add<T>(work: Promise<T>): Promise<T>;
  /** Resolves once no tracked work is in flight, work added meanwhile included. */
  idle(): Promise<void>;
  /**
   * Waits for the work in flight, up to `deadlineMs`; answers whether all of it settled in time.
   * Work added afterwards is still tracked, but nothing waits for it.
   */
  destroy(deadlineMs: number): Promise<boolean>;
  /** How many tracked pieces of work are in flight. */
  readonly size: number;
}

export function createBackgroundWork(): BackgroundWork {
  const running = new Set<Promise<unknown>>();
  const idle = async (): Promise<void> => {
    while (running.size > 0) await Promise.allSettled([...running]);
  };
  return {
    add(work) {
      const tracked = work.then(
        () => undefined,
        () => undefined,
      );
      running.add(tracked);
      void tracked.then(() => running.delete(tracked));
      return work;
    },
    idle,
    async destroy(deadlineMs) {
      let timer: NodeJS.Timeout | undefined;
      // Not unref'd: the wait itself keeps the process alive until the work settles or the deadline passes.
      const late = new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), deadlineMs);
      });
      const settled = await Promise.race([idle().then(() => true as const), late]);
      clearTimeout(timer);
      return settled;
    },
    get size() {
      return running.size;
    },
  };
}
