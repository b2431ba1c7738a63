/** What {@link ConcurrencyLimit.runWithin} did: ran the task, or gave up waiting for a slot. */
export type SlotRun<T> = { readonly started: true; readonly value: T } | { readonly started: false };

/**
 * At most `slots` tasks of this process run at once; a further task waits, first come first
 * served, until one of them settles, or gives up after a bound and leaves the task unstarted, so
 * that a queue function can hand its message back instead of waiting into its function timeout.
 */
export class ConcurrencyLimit {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(readonly slots: number) {
    if (!Number.isInteger(slots) || slots < 1) throw new RangeError(`slots must be a positive integer, not ${String(slots)}`);
  }

  /** Tasks running now. */
  get running(): number {
    return this.#running;
  }

  /** Tasks waiting for a slot now. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs the task once a slot is free, unless none frees within `maxWaitMs`: then it never starts. */
  async runWithin<T>(maxWaitMs: number, task: () => Promise<T>): Promise<SlotRun<T>> {
    if (!(await this.#acquire(maxWaitMs))) return { started: false };
    try {
      return { started: true, value: await task() };
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }

  /** Takes a slot, waiting at most `maxWaitMs`; false when none came in time. */
  #acquire(maxWaitMs: number): Promise<boolean> {
    if (this.#running < this.slots) {
      this.#running += 1;
      return Promise.resolve(true);
    }
    // The slot is handed over by the task that frees it, so #running never drops in between and
    // a newcomer cannot overtake the tasks already waiting.
    return new Promise<boolean>((resolve) => {
      const handOver = (): void => {
        clearTimeout(timer);
        resolve(true);
      };
      this.#waiting.push(handOver);
      // A slot is handed over from another task's run, never before this line has run.
      const timer = setTimeout(() => {
        const index = this.#waiting.indexOf(handOver);
        // Already handed a slot: the hand-over has resolved the promise.
        if (index === -1) return;
        this.#waiting.splice(index, 1);
        resolve(false);
      }, maxWaitMs);
    });
  }
}
