import type { Clock } from '../ports/Clock.js';
import type { ProductIds } from '../ports/ProductIds.js';

/** One listing of a partner's ids: shared by every push that asks while it runs or is fresh. */
interface Load {
  readonly ids: Promise<ReadonlySet<string>>;
  /** When the listing started: a set's age is counted from there, so it is never understated. */
  readonly startedAt: number;
  settled: boolean;
}

/**
 * product_ids HQ holds per partner, for the UNKNOWN_PRODUCT warning. Listing them on every push
 * would cost more than the push, so a listing is kept for `maxAgeMs`; a warning that lags a
 * product upload on another instance by seconds changes nothing (unknown products are accepted).
 * The listing reads the distinct ids ({@link ProductIds}), never the product rows, which multiply
 * by stores. Pushes that ask while a listing runs wait on that one instead of starting their own.
 */
export class ProductCatalog {
  private readonly loads = new Map<string, Load>();

  constructor(
    private readonly productIds: Pick<ProductIds, 'list'>,
    private readonly clock: Clock,
    private readonly maxAgeMs = 30_000,
  ) {}

  knownIds(partnerId: string): Promise<ReadonlySet<string>> {
    const now = this.clock().getTime();
    const current = this.loads.get(partnerId);
    if (current && (!current.settled || isFresh(now - current.startedAt, this.maxAgeMs))) return current.ids;
    const load: Load = { ids: this.productIds.list(partnerId), startedAt: now, settled: false };
    this.loads.set(partnerId, load);
    void load.ids.then(
      () => {
        load.settled = true;
      },
      () => {
        // A failed listing is not kept: the next push lists again rather than failing for maxAgeMs.
        if (this.loads.get(partnerId) === load) this.loads.delete(partnerId);
      },
    );
    return load.ids;
  }

  /**
   * Called after a product upload applied by this instance: the next push lists again, so this
   * instance warns from the new ids at once. A listing still running may predate the upload, so it
   * is dropped too (its waiting pushes keep it).
   */
  forget(partnerId: string): void {
    this.loads.delete(partnerId);
  }
}

/** A clock moved back (age < 0) makes a listing untrusted, so staleness never exceeds maxAgeMs. */
function isFresh(ageMs: number, maxAgeMs: number): boolean {
  return ageMs >= 0 && ageMs < maxAgeMs;
}
