import { randomUUID } from 'node:crypto';
import { odata } from '@azure/data-tables';
import type { PipelinePolicy, PipelineRequest, PipelineResponse, SendRequest } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';
import type { TradeRecordSummary } from '../../src/domain/reconciliation/TradeRecordSummary.js';
import { maxDayListingRanges } from '../../src/storage/dayListingSplits.js';
import { createStorageClients, ensureStorage } from '../../src/storage/StorageClients.js';
import { tableKey } from '../../src/storage/tableKey.js';
import { TradeRecordIndex, type DayRow } from '../../src/storage/TradeRecordIndex.js';
import { azuriteConfig } from '../support/azuriteConfig.js';

/** Notes the filter of every table query sent, and how many of them have been answered. */
class FilterRecorder implements PipelinePolicy {
  readonly name = 'filter-recorder';
  readonly filters: string[] = [];
  answered = 0;

  async sendRequest(request: PipelineRequest, next: SendRequest): Promise<PipelineResponse> {
    const url = new URL(request.url);
    if (!(request.method === 'GET' && url.pathname.endsWith('()'))) return next(request);
    this.filters.push(url.searchParams.get('$filter') ?? '');
    try {
      return await next(request);
    } finally {
      this.answered += 1;
    }
  }
}

const businessDate = '2026-03-01';

function summary(id: string, version: number, batchSeq: number): TradeRecordSummary {
  return {
    trade_record_id: id,
    version,
    last_modified_at: '2026-03-01T10:00:00Z',
    source_transaction_type: 'S01',
    currency: 'USD',
    total_amount: `${version}.25`,
    tax_amount: '0.10',
    tip_amount: '0.00',
    item_row_count: 1,
    payment_row_count: 1,
    payments: [{ payment_type: 'CASH', amount: `${version}.25` }],
    batch_seq: batchSeq,
    batch_id: `batch-${batchSeq}`,
  };
}

async function setUp() {
  const recorder = new FilterRecorder();
  const storage = createStorageClients(azuriteConfig(), { policy: recorder });
  await ensureStorage(storage);
  return { recorder, table: storage.tables.tradeRecords, index: new TradeRecordIndex(storage.tables.tradeRecords) };
}

/**
 * Ids of every shape a partner may send, over 8 batches of 500: in id order, in no order (random
 * ids), spelled out with escapes, and too long for a key (stored as a digest).
 */
function idsOfBatch(b: number): string[] {
  return Array.from({ length: 500 }, (_, i) => {
    if (b % 4 === 0) return `T-${b}-${String(i).padStart(4, '0')}`;
    if (b % 4 === 1) return randomUUID();
    if (b % 4 === 2) return `Ké/${b}#${i}`;
    return `${'L'.repeat(600)}-${b}-${i}`;
  });
}

async function listDay(index: TradeRecordIndex, partnerId: string, storeId: string): Promise<DayRow[]> {
  const rows: DayRow[] = [];
  for await (const row of index.listDay(partnerId, storeId, businessDate)) rows.push(row);
  return rows;
}

describe('TradeRecordIndex.listDay', () => {
  it('lists a large day in key ranges side by side: every batch first, then every latest version once', async () => {
    const { recorder, table, index } = await setUp();
    const partnerId = `p-${randomUUID()}`;
    const storeId = 'S-1';
    const latest = new Map<string, TradeRecordSummary>();
    for (let b = 1; b <= 8; b++) {
      const summaries = idsOfBatch(b).map((id) => summary(id, 1, b));
      await index.applyBatch(partnerId, storeId, businessDate, summaries, {
        batchId: `batch-${b}`,
        batchSeq: b,
        receivedAt: '',
        recordCount: 500,
      });
      for (const s of summaries) latest.set(s.trade_record_id, s);
    }
    // A ninth batch sends new versions of 300 records already listed in batches 1 and 2.
    const updates = [...idsOfBatch(1).slice(0, 150), ...[...latest.keys()].slice(500, 650)].map((id) => summary(id, 2, 9));
    await index.applyBatch(partnerId, storeId, businessDate, updates, {
      batchId: 'batch-9',
      batchSeq: 9,
      receivedAt: '',
      recordCount: 300,
    });
    for (const s of updates) latest.set(s.trade_record_id, s);

    recorder.filters.length = 0;
    const rows = await listDay(index, partnerId, storeId);

    expect(rows.slice(0, 9).map((row) => (row.type === 'batch' ? row.batch.batchSeq : 'transaction'))).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const transactions = rows.slice(9).map((row) => (row.type === 'transaction' ? row.summary : undefined));
    expect(transactions).toHaveLength(latest.size);
    const byId = new Map(transactions.map((s) => [s?.trade_record_id, s]));
    expect(byId.size).toBe(latest.size);
    for (const [id, s] of latest) expect(byId.get(id)).toEqual(s);
    // The SDK's listing of the partition agrees on the rows (batch rows and transactions).
    let stored = 0;
    for await (const _ of table.listEntities({
      queryOptions: { filter: odata`PartitionKey eq ${tableKey(partnerId, storeId, businessDate)}` },
    }))
      stored += 1;
    expect(rows).toHaveLength(stored);

    // One query of the whole partition, then one per range: the first starts above the first page.
    expect(recorder.filters[0]).not.toContain('RowKey');
    const ranges = recorder.filters.filter((f) => f.includes('RowKey gt') || (f.includes('RowKey ge') && !f.includes('NextRowKey')));
    const firstOfEach = new Set(ranges);
    expect(firstOfEach.size).toBe(maxDayListingRanges);
    expect([...firstOfEach].filter((f) => f.includes('RowKey gt'))).toHaveLength(1);
    expect([...firstOfEach].filter((f) => !f.includes('RowKey lt'))).toHaveLength(1);
  });

  it('reads on in one listing when the batch rows noted no keys (rows written before they did)', async () => {
    const { recorder, table, index } = await setUp();
    const partnerId = `p-${randomUUID()}`;
    const storeId = 'S-2';
    const partitionKey = tableKey(partnerId, storeId, businessDate);
    const ids = new Set<string>();
    for (let b = 1; b <= 3; b++) {
      const summaries = Array.from({ length: 500 }, (_, i) => summary(`T-${b}-${i}`, 1, b));
      await index.applyBatch(partnerId, storeId, businessDate, summaries, {
        batchId: `batch-${b}`,
        batchSeq: b,
        receivedAt: '',
        recordCount: 500,
      });
      summaries.forEach((s) => ids.add(s.trade_record_id));
      // The batch row as it was written before batches noted keys.
      await table.upsertEntity({ partitionKey, rowKey: `!batch|batch-${b}`, batchSeq: b, receivedAt: '', recordCount: 500 }, 'Replace');
    }

    recorder.filters.length = 0;
    const rows = await listDay(index, partnerId, storeId);

    expect(rows.filter((row) => row.type === 'batch')).toHaveLength(3);
    const listed = rows.flatMap((row) => (row.type === 'transaction' ? [row.summary.trade_record_id] : []));
    expect(listed).toHaveLength(ids.size);
    expect(new Set(listed)).toEqual(ids);
    expect(recorder.filters.every((f) => !f.includes('RowKey'))).toBe(true);
    expect(recorder.filters).toHaveLength(2);
  });

  it('requests no further pages once the caller stops early', async () => {
    const { recorder, index } = await setUp();
    const partnerId = `p-${randomUUID()}`;
    for (let b = 1; b <= 8; b++) {
      const summaries = Array.from({ length: 500 }, (_, i) => summary(`T-${b}-${String(i).padStart(3, '0')}`, 1, b));
      await index.applyBatch(partnerId, 'S-3', businessDate, summaries, {
        batchId: `batch-${b}`,
        batchSeq: b,
        receivedAt: '',
        recordCount: 500,
      });
    }
    recorder.filters.length = 0;
    let seen = 0;
    for await (const row of index.listDay(partnerId, 'S-3', businessDate)) {
      if (row.type === 'transaction' && ++seen === 10) break;
    }
    // The first page, and one page requested ahead in each of the ranges the rest was split into
    // (each range holds two pages).
    const sentBeforeStop = recorder.filters.length;
    expect(sentBeforeStop).toBe(1 + maxDayListingRanges);
    // A listing asks for a page only once the one before it has arrived. So once every request sent
    // has been answered, and the turn of the event loop those answers were handed on in has ended
    // (between an answer and the next request there are only promise continuations), no listing
    // has a reason left to send another.
    await expect.poll(() => recorder.answered).toBe(sentBeforeStop);
    await new Promise((resolve) => setImmediate(resolve));
    expect(recorder.filters).toHaveLength(sentBeforeStop);
  });
});
