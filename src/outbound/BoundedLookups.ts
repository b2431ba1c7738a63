import type { HostResolver } from './HostResolver.js';

/**
 * Host-name lookups this process runs at once. The operating system's resolver runs each on one of
 * libuv's 4 pool threads until it answers, and storage connections and file reads need those threads
 * too: however many registrations or deliveries ask at once, two threads stay free.
 */
const lookupsAtOnce = 2;

/** How long a lookup may take, its wait for a turn included, before the name counts as not resolving. */
const lookupTimeoutMs = 5_000;

/**
 * Runs the lookups of webhook targets a few at a time, each bounded in time. A lookup that is late
 * answers undefined to its caller but keeps its turn until the resolver lets go of its thread, so a
 * name server that never answers cannot take more threads than the turns allow.
 */
export class BoundedLookups {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(
    private readonly resolve: HostResolver,
    private readonly atOnce = lookupsAtOnce,
    private readonly timeoutMs = lookupTimeoutMs,
  ) {}

  /** The addresses of `hostname`; undefined when no answer came in time. Rejects as the resolver does. */
  lookup(hostname: string): Promise<readonly string[] | undefined> {
    return new Promise((answer, fail) => {
      let settled = false;
      const settle = (then: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        then();
      };
      const run = (): void => {
        this.#running += 1;
        void this.resolve(hostname)
          .then(
            (addresses) => {
              settle(() => {
                answer(addresses);
              });
            },
            (error: unknown) => {
              settle(() => {
                fail(error instanceof Error ? error : new Error(String(error)));
              });
            },
          )
          .finally(() => {
            this.#running -= 1;
            this.#waiting.shift()?.();
          });
      };
      const timer = setTimeout(() => {
        const queued = this.#waiting.indexOf(run);
        if (queued >= 0) this.#waiting.splice(queued, 1);
        settle(() => {
          answer(undefined);
        });
      }, this.timeoutMs);
      if (this.#running < this.atOnce) run();
      else this.#waiting.push(run);
    });
  }
}
