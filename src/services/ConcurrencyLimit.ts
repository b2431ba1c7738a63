/**
 * At most `slots` tasks of this process run at once; a further task waits, first come first
 * served, until one of them settles. Nothing is refused and nothing times out here: a waiting
 * queue function still holds its message (the host keeps it hidden) and counts against its own
 * function timeout.
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

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running < this.slots) {
      this.#running += 1;
    } else {
      // The slot is handed over by the task that frees it, so #running never drops in between
      // and a newcomer cannot overtake the tasks already waiting.
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}
