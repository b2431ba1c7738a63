import { compareCodeUnits } from '../domain/compareCodeUnits.js';

/** Which copy of a transaction is its latest: what the trade-record index row says. */
export interface LatestVersion {
  readonly trade_record_id: string;
  readonly version: number;
  readonly last_modified_at: string;
  readonly batch_id: string;
  readonly batch_seq: number;
}

/** The transactions to take from one raw batch. */
export interface BatchSelection {
  readonly batch_id: string;
  readonly batch_seq: number;
  /** trade_record_id → the version (and its last_modified_at) that is the latest. */
  readonly records: ReadonlyMap<string, { readonly version: number; readonly last_modified_at: string }>;
}

/**
 * The latest version of every transaction of a store-day, grouped by the batch that delivered it,
 * so that each raw batch is read once. Filled from the day's index rows, either while the
 * reconciliation lists them or by listing them for the report alone.
 */
export class LatestVersions {
  private readonly byBatch = new Map<string, { batch_seq: number; records: Map<string, { version: number; last_modified_at: string }> }>();
  private count = 0;

  add(latest: LatestVersion): void {
    let batch = this.byBatch.get(latest.batch_id);
    if (!batch) {
      batch = { batch_seq: latest.batch_seq, records: new Map() };
      this.byBatch.set(latest.batch_id, batch);
    }
    if (!batch.records.has(latest.trade_record_id)) this.count += 1;
    batch.records.set(latest.trade_record_id, { version: latest.version, last_modified_at: latest.last_modified_at });
  }

  /** Transactions added. */
  get size(): number {
    return this.count;
  }

  /** The batches to read, in batch_seq order (then batch_id), so files come out the same on every run. */
  batches(): BatchSelection[] {
    return [...this.byBatch]
      .map(([batch_id, { batch_seq, records }]) => ({ batch_id, batch_seq, records }))
      .sort((a, b) => a.batch_seq - b.batch_seq || compareCodeUnits(a.batch_id, b.batch_id));
  }
}
