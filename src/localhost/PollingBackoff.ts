/**
 * The pause between polls of one queue, as the Functions queue trigger chooses it: while the queue
 * keeps coming back empty the pause grows exponentially from 100 ms, each step randomised by ±20 %
 * so that instances started together drift apart, until it reaches host.json's
 * `extensions.queues.maxPollingInterval`, where it stays. The first empty poll after one that found
 * messages starts again at 100 ms. (A poll that finds messages is followed by the next one as soon
 * as the running messages allow, with no pause; that is the poller's part.)
 */
export class PollingBackoff {
  readonly #maxMs: number;
  readonly #random: () => number;
  #currentMs = 0;
  /** Doublings applied to the next growth step; 0 before the first pause. */
  #exponent = 0;

  /**
   * @param maxMs the longest pause (host.json's maxPollingInterval), at least {@link minPollingIntervalMs}
   * @param random a source of numbers in [0, 1), like Math.random
   */
  constructor(maxMs: number, random: () => number = Math.random) {
    if (!(maxMs >= minPollingIntervalMs)) {
      throw new RangeError(`The maximum polling interval must be at least ${String(minPollingIntervalMs)} ms, not ${String(maxMs)}.`);
    }
    this.#maxMs = maxMs;
    this.#random = random;
  }

  /**
   * The pause before the next poll, after a poll that found the queue empty (or failed).
   * @param foundMessagesSinceLastPause whether a poll since the previous pause found messages
   */
  next(foundMessagesSinceLastPause: boolean): number {
    if (foundMessagesSinceLastPause) {
      this.#currentMs = minPollingIntervalMs;
      this.#exponent = 1;
      return this.#currentMs;
    }
    if (this.#currentMs === this.#maxMs) return this.#currentMs;
    let candidate = minPollingIntervalMs;
    if (this.#exponent > 0) {
      const jitter = 1 - randomisation + this.#random() * 2 * randomisation;
      candidate += Math.round(jitter * 2 ** (this.#exponent - 1) * minPollingIntervalMs);
    }
    if (candidate < this.#maxMs) {
      this.#currentMs = candidate;
      this.#exponent += 1;
    } else {
      this.#currentMs = this.#maxMs;
    }
    return this.#currentMs;
  }
}

/** The queue trigger's shortest pause between polls, and the least maxPollingInterval it accepts. */
export const minPollingIntervalMs = 100;

/** Each growth step is scaled by a random factor within 1 ± this. */
const randomisation = 0.2;
