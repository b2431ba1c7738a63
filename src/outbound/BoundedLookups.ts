import type { HostResolver } from './HostResolver.js';
import { LookupsBusyError } from './LookupsBusyError.js';

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
 *
 * Lookups of a name already being looked up share that lookup and take no turn: a partner's
 * endpoint has one host name, so however many of its events are sent at once, a slow name server
 * of its own holds one turn, and the other partners' names keep the rest. A caller that waited for
 * a turn and got none is told so ({@link LookupsBusyError}), which says nothing about its name.
 */
export class BoundedLookups {
  #running = 0;
  readonly #waiting: (() => void)[] = [];
  readonly #resolving = new Map<string, Promise<readonly string[]>>();

  constructor(
    private readonly resolve: HostResolver,
    private readonly atOnce = lookupsAtOnce,
    private readonly timeoutMs = lookupTimeoutMs,
  ) {}

  /**
   * The addresses of `hostname`; undefined when its lookup gave no answer in time. Rejects with
   * {@link LookupsBusyError} when no turn came in time, otherwise as the resolver does.
   */
  lookup(hostname: string): Promise<readonly string[] | undefined> {
    return new Promise((answer, fail) => {
      let settled = false;
      const settle = (then: () => void): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        then();
      };
      const follow = (resolution: Promise<readonly string[]>): void => {
        resolution.then(
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
        );
      };
      // Called with a free turn: looks the name up, or, should another caller have started that
      // meanwhile, follows it and hands the turn to the next in line.
      const takeTurn = (): void => {
        const shared = this.#resolving.get(hostname);
        if (shared === undefined) {
          follow(this.#start(hostname));
        } else {
          follow(shared);
          this.#waiting.shift()?.();
        }
      };
      const timer = setTimeout(() => {
        const queued = this.#waiting.indexOf(takeTurn);
        if (queued >= 0) {
          this.#waiting.splice(queued, 1);
          settle(() => {
            fail(new LookupsBusyError());
          });
        } else {
          settle(() => {
            answer(undefined);
          });
        }
      }, this.timeoutMs);
      const shared = this.#resolving.get(hostname);
      if (shared !== undefined) follow(shared);
      else if (this.#running < this.atOnce) takeTurn();
      else this.#waiting.push(takeTurn);
    });
  }

  /** Looks `hostname` up on a turn of its own, which it keeps until the resolver lets go. */
  #start(hostname: string): Promise<readonly string[]> {
    this.#running += 1;
    const resolution = this.resolve(hostname);
    this.#resolving.set(hostname, resolution);
    void resolution
      .catch(() => undefined)
      .finally(() => {
        this.#resolving.delete(hostname);
        this.#running -= 1;
        this.#waiting.shift()?.();
      });
    return resolution;
  }
}
