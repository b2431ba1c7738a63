import { odata, type TableClient } from '@azure/data-tables';
import type { BatchKind } from '../domain/model/BatchKind.js';
import { mapBounded } from '../services/mapBounded.js';
import { BatchLedger } from './BatchLedger.js';
import { encodeKeyPart } from './tableKey.js';

/** A batch ledger entry that is not committed, as HQ lists it. */
export interface UncommittedBatch {
  readonly partnerId: string;
  readonly batchId: string;
  readonly state: 'PENDING' | 'FAILED';
  readonly kind: BatchKind;
  readonly createdAt: string;
  readonly failedAt: string | undefined;
  readonly failure: string | undefined;
}

/** A row of the pending or the failed index: which batch, created when. */
interface IndexRow {
  partnerId: string;
  batchId: string;
  createdAt: string;
}

/** Ledger entries read at once to check a page's rows. */
const entryReadsAtOnce = 16;

/** Index rows one call checks at most while it fills a page (one ledger read each). */
const maxRowsExamined = 1_000;

/** Index pages one call reads at most while it fills a page. */
const maxIndexReads = 10;

/**
 * Pages through the batches that are not committed, for HQ (read only), in one state, across
 * partners or for one partner. The ledger holds every batch ever received, so it is never
 * filtered: pending batches are found through the pending index (the row a push writes beside its
 * ledger entry, which the sweep uses too) and failed ones through the failed index (written before
 * the ledger says FAILED). Each row's ledger entry is read, and a row whose batch is in another
 * state now (committed, and waiting only for its report fragment) is left out. Paged by storage's
 * own continuation of the index, so a page never holds more than `limit` batches; a page may hold
 * fewer, even none, when a call has reached `maxRowsExamined` rows or `maxIndexReads` reads.
 */
export class BatchLedgerListing {
  private readonly ledger: BatchLedger;

  constructor(
    ledgerTable: TableClient,
    private readonly indexes: { readonly pending: TableClient; readonly failed: TableClient },
  ) {
    this.ledger = new BatchLedger(ledgerTable);
  }

  async page(
    state: 'PENDING' | 'FAILED',
    options: { partnerId?: string | undefined; limit: number; after?: LedgerPosition | undefined },
  ): Promise<{ items: UncommittedBatch[]; next: LedgerPosition | undefined }> {
    const { partnerId } = options;
    const filter =
      partnerId === undefined
        ? undefined
        : state === 'PENDING'
          ? odata`partnerId eq ${partnerId}`
          : odata`PartitionKey eq ${encodeKeyPart(partnerId)}`;
    const index = state === 'PENDING' ? this.indexes.pending : this.indexes.failed;
    const items: UncommittedBatch[] = [];
    let after = options.after;
    // Index pages are read until the page is full: on a busy evening the pending index is mostly
    // committed batches waiting for their report fragment, which would otherwise leave page after
    // page empty. Each read asks only for what the page still lacks, so it never holds more than
    // `limit`; a call checks at most `maxRowsExamined` rows in at most `maxIndexReads` reads (a
    // partner's filter on the pending index is a scan, whose pages may come back empty).
    for (let examined = 0, reads = 0; items.length < options.limit && examined < maxRowsExamined && reads < maxIndexReads; reads++) {
      const pages = index
        .listEntities<IndexRow>({
          queryOptions: { ...(filter === undefined ? {} : { filter }), select: ['partnerId', 'batchId', 'createdAt'] },
        })
        .byPage({ maxPageSize: options.limit - items.length, ...(after ? { continuationToken: toSdkToken(after) } : {}) });
      const result = await pages.next();
      if (result.done) return { items, next: undefined };
      const page = result.value;
      examined += page.length;
      const listed = await mapBounded(page, entryReadsAtOnce, (row) => this.uncommitted(state, row));
      items.push(...listed.filter((item): item is UncommittedBatch => item !== undefined));
      if (page.continuationToken === undefined) return { items, next: undefined };
      after = fromSdkToken(page.continuationToken);
    }
    return { items, next: after };
  }

  /** The row's batch as HQ lists it, or undefined when its entry is in another state now. */
  private async uncommitted(state: 'PENDING' | 'FAILED', row: IndexRow): Promise<UncommittedBatch | undefined> {
    const entry = await this.ledger.get(row.partnerId, row.batchId);
    // Another state now, or another entry under the same batch_id (dropped and received again).
    if (entry?.state !== state || entry.createdAt !== row.createdAt) return undefined;
    return {
      partnerId: row.partnerId,
      batchId: row.batchId,
      state,
      kind: entry.kind,
      createdAt: entry.createdAt,
      failedAt: entry.state === 'FAILED' ? entry.failedAt : undefined,
      failure: entry.state === 'FAILED' ? entry.failure : undefined,
    };
  }

  isPosition(position: LedgerPosition): boolean {
    return isLedgerPosition(position);
  }
}

/**
 * Where the next page of a listing starts: the table's own next keys. Kept as plain keys rather
 * than the SDK's token so a caller's cursor is checked here before it reaches a request header.
 */
export interface LedgerPosition {
  readonly partitionKey: string;
  readonly rowKey: string;
}

/** Encoded table keys are printable ASCII; anything else did not come from a listing. */
const keyText = /^[!-~]{0,1024}$/;

/**
 * Whether a position handed back by a caller can be one a listing produced.
 * @internal so that the in-memory ledger of the tests checks positions alike.
 */
export function isLedgerPosition(position: LedgerPosition): boolean {
  return position.partitionKey.length > 0 && keyText.test(position.partitionKey) && keyText.test(position.rowKey);
}

/** The data-tables package's token: base64 of `{nextPartitionKey, nextRowKey}`. */
function toSdkToken(position: LedgerPosition): string {
  const token = { nextPartitionKey: position.partitionKey, ...(position.rowKey ? { nextRowKey: position.rowKey } : {}) };
  return Buffer.from(JSON.stringify(token), 'utf8').toString('base64');
}

function fromSdkToken(token: string): LedgerPosition {
  const parsed = JSON.parse(Buffer.from(token, 'base64').toString('utf8')) as { nextPartitionKey?: string; nextRowKey?: string };
  return { partitionKey: parsed.nextPartitionKey ?? '', rowKey: parsed.nextRowKey ?? '' };
}
