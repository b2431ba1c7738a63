import { odata, type TableClient } from '@azure/data-tables';
import type { BatchKind } from '../domain/model/BatchKind.js';
import { decodeKeyPart, encodeKeyPart } from './tableKey.js';

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

interface ListedEntity {
  partitionKey: string;
  rowKey: string;
  state: 'PENDING' | 'FAILED';
  kind: BatchKind;
  createdAt: string;
  failedAt?: string;
  failure?: string;
}

/**
 * Pages through the batch ledger for HQ (read only): entries in one state, across partners or for
 * one partner. Paged by storage's own continuation, so a page never holds more than `limit` rows.
 */
export class BatchLedgerListing {
  constructor(private readonly table: TableClient) {}

  async page(
    state: 'PENDING' | 'FAILED',
    options: { partnerId?: string | undefined; limit: number; after?: LedgerPosition | undefined },
  ): Promise<{ items: UncommittedBatch[]; next: LedgerPosition | undefined }> {
    const filter =
      options.partnerId === undefined
        ? odata`state eq ${state}`
        : odata`PartitionKey eq ${encodeKeyPart(options.partnerId)} and state eq ${state}`;
    const pages = this.table
      .listEntities<ListedEntity>({
        queryOptions: { filter, select: ['PartitionKey', 'RowKey', 'state', 'kind', 'createdAt', 'failedAt', 'failure'] },
      })
      .byPage({ maxPageSize: options.limit, ...(options.after ? { continuationToken: toSdkToken(options.after) } : {}) });
    const result = await pages.next();
    if (result.done) return { items: [], next: undefined };
    const page = result.value;
    return {
      items: page.map((entity) => ({
        partnerId: decodeKeyPart(entity.partitionKey),
        batchId: decodeKeyPart(entity.rowKey),
        state: entity.state,
        kind: entity.kind,
        createdAt: entity.createdAt,
        failedAt: entity.failedAt,
        failure: entity.failure,
      })),
      next: page.continuationToken === undefined ? undefined : fromSdkToken(page.continuationToken),
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

/** Whether a position handed back by a caller can be one a listing produced. */
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
