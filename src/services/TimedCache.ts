import type { Clock } from './ports/Clock.js';

/** Entries kept at most; beyond it the oldest go first (a bound against a flood of distinct keys). */
const defaultMaxEntries = 10_000;

/**
 * What this instance read recently, trusted for `ttlMs` by the service's clock (a ttl of 0 keeps
 * nothing). An entry read in the future of the clock (a test clock moved back) is not trusted,
 * so staleness never exceeds the ttl whichever way the clock moves.
 */
export class TimedCache<K, V> {
  private readonly entries = new Map<K, { readonly value: V; readonly readAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly ttlMs: number,
    private readonly maxEntries = defaultMaxEntries,
  ) {}

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    const age = this.clock().getTime() - entry.readAt;
    if (age >= 0 && age < this.ttlMs) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** Keeps `value` as read at `readAt`: the time taken before the read started, so its age is never understated. */
  set(key: K, value: V, readAt: Date): void {
    if (this.ttlMs <= 0) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
    this.entries.set(key, { value, readAt: readAt.getTime() });
  }

  /**
   * The value trusted for `key`, or else what `read` finds, remembered when `keep` accepts it
   * (timed from before the read). Nothing is remembered of a value not found or not kept, so it
   * is read again next time.
   */
  async getOrRead(key: K, read: () => Promise<V | undefined>, keep: (value: V) => boolean = () => true): Promise<V | undefined> {
    const known = this.get(key);
    if (known !== undefined) return known;
    const readAt = this.clock();
    const value = await read();
    if (value !== undefined && keep(value)) this.set(key, value, readAt);
    return value;
  }

  delete(key: K): void {
    this.entries.delete(key);
  }
}
