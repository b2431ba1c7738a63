import type { BatchKind } from '../../../src/domain/model/BatchKind.js';
import type { BatchReceipt, LedgerEntry } from '../../../src/storage/BatchLedger.js';
import type { Ledger } from '../../../src/services/ports/Ledger.js';
import type { UncommittedBatches } from '../../../src/services/ports/UncommittedBatches.js';
import { isLedgerPosition, type LedgerPosition, type UncommittedBatch } from '../../../src/storage/BatchLedgerListing.js';
import { encodeKeyPart } from '../../../src/storage/tableKey.js';

/** The batch ledger in a map with counted ETags, for unit tests of services; HQ's listing pages it in key order. */
export class InMemoryLedger implements Ledger, UncommittedBatches {
  private readonly entries = new Map<string, LedgerEntry>();
  private etags = 0;

  get(partnerId: string, batchId: string): Promise<LedgerEntry | undefined> {
    return Promise.resolve(this.entries.get(key(partnerId, batchId)));
  }

  createPending(partnerId: string, batchId: string, kind: BatchKind, bodyHash: string, now: Date): Promise<LedgerEntry | undefined> {
    if (this.entries.has(key(partnerId, batchId))) return Promise.resolve(undefined);
    const entry: LedgerEntry = { state: 'PENDING', kind, bodyHash, createdAt: now.toISOString(), etag: this.nextEtag() };
    this.entries.set(key(partnerId, batchId), entry);
    return Promise.resolve(entry);
  }

  commit(partnerId: string, batchId: string, pending: LedgerEntry, receipt: BatchReceipt, now: Date): Promise<boolean> {
    if (this.entries.get(key(partnerId, batchId))?.etag !== pending.etag) return Promise.resolve(false);
    const { kind, bodyHash, createdAt } = pending;
    const committedAt = now.toISOString();
    this.entries.set(key(partnerId, batchId), {
      state: 'COMMITTED',
      kind,
      bodyHash,
      createdAt,
      committedAt,
      receipt,
      etag: this.nextEtag(),
    });
    return Promise.resolve(true);
  }

  markFailed(partnerId: string, batchId: string, pending: LedgerEntry, failure: string, now: Date): Promise<boolean> {
    if (this.entries.get(key(partnerId, batchId))?.etag !== pending.etag) return Promise.resolve(false);
    const { kind, bodyHash, createdAt } = pending;
    this.entries.set(key(partnerId, batchId), {
      state: 'FAILED',
      kind,
      bodyHash,
      createdAt,
      failedAt: now.toISOString(),
      failure,
      etag: this.nextEtag(),
    });
    return Promise.resolve(true);
  }

  deleteAbandoned(partnerId: string, batchId: string, pending: LedgerEntry): Promise<boolean> {
    if (this.entries.get(key(partnerId, batchId))?.etag !== pending.etag) return Promise.resolve(false);
    this.entries.delete(key(partnerId, batchId));
    return Promise.resolve(true);
  }

  async *listPending(): AsyncIterable<{ partnerId: string; batchId: string; createdAt: string }> {
    for (const [k, entry] of this.entries) {
      const [partnerId = '', batchId = ''] = JSON.parse(k) as string[];
      if (entry.state === 'PENDING') yield await Promise.resolve({ partnerId, batchId, createdAt: entry.createdAt });
    }
  }

  page(
    state: 'PENDING' | 'FAILED',
    options: { partnerId?: string | undefined; limit: number; after?: LedgerPosition | undefined },
  ): Promise<{ items: UncommittedBatch[]; next: LedgerPosition | undefined }> {
    const rows = [...this.entries]
      .map(([k, entry]) => {
        const [partnerId = '', batchId = ''] = JSON.parse(k) as string[];
        return { position: { partitionKey: encodeKeyPart(partnerId), rowKey: encodeKeyPart(batchId) }, partnerId, batchId, entry };
      })
      .filter((row) => row.entry.state === state && (options.partnerId === undefined || row.partnerId === options.partnerId))
      .sort((a, b) => compareKeys(a.position, b.position));
    const after = options.after;
    const from = after === undefined ? 0 : rows.findIndex((row) => compareKeys(row.position, after) >= 0);
    const start = from === -1 ? rows.length : from;
    const page = rows.slice(start, start + options.limit);
    const items = page.map(({ partnerId, batchId, entry }) => ({
      partnerId,
      batchId,
      state,
      kind: entry.kind,
      createdAt: entry.createdAt,
      failedAt: entry.state === 'FAILED' ? entry.failedAt : undefined,
      failure: entry.state === 'FAILED' ? entry.failure : undefined,
    }));
    return Promise.resolve({ items, next: rows[start + options.limit]?.position });
  }

  isPosition(position: LedgerPosition): boolean {
    return isLedgerPosition(position);
  }

  private nextEtag(): string {
    this.etags += 1;
    return `W/"${this.etags}"`;
  }
}

/** Table order: partition key, then row key. */
function compareKeys(a: LedgerPosition, b: LedgerPosition): number {
  if (a.partitionKey !== b.partitionKey) return a.partitionKey < b.partitionKey ? -1 : 1;
  return a.rowKey < b.rowKey ? -1 : a.rowKey > b.rowKey ? 1 : 0;
}

/** A UUID names the same batch in upper or lower case. */
function key(partnerId: string, batchId: string): string {
  return JSON.stringify([partnerId, batchId.toLowerCase()]);
}
