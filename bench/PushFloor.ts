import { createHash } from 'node:crypto';
import type { TransactionAction } from '@azure/data-tables';
import type { TradeRecordBatch } from '../src/domain/model/payloads.js';
import { summarizeTradeRecord } from '../src/domain/reconciliation/TradeRecordSummary.js';
import { toIndexEntity } from '../src/storage/TradeRecordIndex.js';
import { createStorageClients, type StorageClients } from '../src/storage/StorageClients.js';

const rowsPerTransaction = 100;

/**
 * The least storage work a push of a batch can cost: the same raw-body blob put (same bytes,
 * same `If-None-Match: *`) followed by ⌈records/100⌉ entity-group transactions of `create`
 * actions with entities of the same shape and size as the index rows, issued in parallel as the
 * push issues them. Nothing else: no HTTP, parsing, validation, auth, ledger or queue.
 */
export class PushFloor {
  private readonly clients: StorageClients;
  private readonly baseEntities: Record<string, unknown>[];
  private readonly bodyHash: string;

  constructor(
    connectionString: string,
    private readonly bytes: Buffer,
    body: TradeRecordBatch,
  ) {
    this.clients = createStorageClients({ storage: { kind: 'connectionString', connectionString }, reportsContainer: 'reports' });
    this.bodyHash = createHash('sha256').update(bytes).digest('hex');
    this.baseEntities = body.trade_records.map((record) => ({ ...toIndexEntity(summarizeTradeRecord(record, body)) }));
  }

  get transactionCount(): number {
    return Math.ceil(this.baseEntities.length / rowsPerTransaction);
  }

  /**
   * Prepares run `n` (new blob name, new row keys) outside the timed section; its rows go to the
   * partition of `businessDate`, so runs on distinct dates each write a partition of their own,
   * as pushes to distinct store-days do.
   */
  prepare(n: number, businessDate: string): () => Promise<void> {
    const tag = `floor-${n}`;
    const partitionKey = `bench-floor|${businessDate}`;
    const chunks: TransactionAction[][] = [];
    for (let i = 0; i < this.baseEntities.length; i += rowsPerTransaction) {
      chunks.push(
        this.baseEntities
          .slice(i, i + rowsPerTransaction)
          .map((e, k): TransactionAction => ['create', { ...e, partitionKey, rowKey: `${tag}-${String(i + k).padStart(6, '0')}` }]),
      );
    }
    const blob = this.clients.rawBatches.getBlockBlobClient(`bench-floor/${tag}.json`);
    const table = this.clients.tables.tradeRecords;
    return async () => {
      await blob.uploadData(this.bytes, {
        conditions: { ifNoneMatch: '*' },
        metadata: { sha256: this.bodyHash },
        blobHTTPHeaders: { blobContentType: 'application/json' },
      });
      await Promise.all(chunks.map((actions) => table.submitTransaction(actions)));
    };
  }
}
