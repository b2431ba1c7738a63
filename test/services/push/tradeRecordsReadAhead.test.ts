/**
 * The trade-records processor lists the store-day's batches from the parsed body, while the body is
 * validated, and its check uses that listing only for the store-day the validated body names.
 */
import { describe, expect, it } from 'vitest';
import type { TradeRecordsDependencies } from '../../../src/services/push/tradeRecordsProcessor.js';
import { tradeRecordsProcessor } from '../../../src/services/push/tradeRecordsProcessor.js';
import { BatchIngestion, type BatchIngestionOptions } from '../../../src/services/push/BatchIngestion.js';
import type { BatchProcessor } from '../../../src/services/push/BatchProcessor.js';
import type { DayBatch } from '../../../src/storage/TradeRecordIndex.js';
import { buildTradeRecordBatch } from '../../fixtures/tradeRecordFixtures.js';
import { InMemoryTradeRecords } from '../../support/memory/InMemoryTradeRecords.js';

const limits = { maxTransactions: 10, maxBatches: 5 };

/** The processor over an in-memory index whose batch listings are recorded; the check reads nothing else that matters here. */
function processorWithListings() {
  const index = new InMemoryTradeRecords();
  const listings: { partnerId: string; storeId: string; businessDate: string; max: number }[] = [];
  const listDayBatches = index.listDayBatches.bind(index);
  index.listDayBatches = (partnerId, storeId, businessDate, max) => {
    listings.push({ partnerId, storeId, businessDate, max });
    return listDayBatches(partnerId, storeId, businessDate, max);
  };
  const deps = {
    stores: { get: () => Promise.resolve({ currency: 'USD' }) },
    index,
    clock: () => new Date('2026-03-02T12:00:00Z'),
    storeDayLimits: limits,
  } as unknown as TradeRecordsDependencies;
  return { processor: tradeRecordsProcessor(deps), listings };
}

const fullDay = (batchId: string): DayBatch => ({ batchId, batchSeq: 1, receivedAt: '2026-03-01T10:00:00.000Z', recordCount: 10 });

describe('the store-day read ahead of validation', () => {
  it("lists the day the parsed body names, under the caller's partner id, and the check uses that listing", async () => {
    const { processor, listings } = processorWithListings();
    const body = buildTradeRecordBatch({ businessDate: '2026-03-01' });
    const ahead = processor.readAhead?.('partner-a', structuredClone(body));
    expect(listings).toEqual([{ partnerId: 'partner-a', storeId: body.store_id, businessDate: '2026-03-01', max: limits.maxBatches }]);

    // The listing read ahead is the one judged: a full day there refuses the batch.
    const full = { ...ahead!, batches: Promise.resolve([fullDay('other')]) };
    await expect(processor.check('partner-a', body, full)).rejects.toMatchObject({ code: 'STORE_DAY_TOO_LARGE' });
    expect(listings).toHaveLength(1);
  });

  it('lists the validated day again when the read ahead was for another', async () => {
    const { processor, listings } = processorWithListings();
    const body = buildTradeRecordBatch({ businessDate: '2026-03-01' });
    const elsewhere = { storeId: body.store_id, businessDate: '2026-02-28', batches: Promise.resolve([fullDay('other')]) };
    expect((await processor.check('partner-a', body, elsewhere)).problems).toEqual([]);
    expect(listings.map((listing) => listing.businessDate)).toEqual(['2026-03-01']);
  });

  it('reads nothing for a store_id or business_date the schema would refuse', () => {
    const { processor, listings } = processorWithListings();
    const body = buildTradeRecordBatch();
    for (const value of [
      { ...body, store_id: 42 },
      { ...body, store_id: 'S'.repeat(129) },
      { ...body, business_date: '2026-3-1' },
      { ...body, business_date: ['2026-03-01'] },
      { batch_id: body.batch_id },
    ]) {
      expect(processor.readAhead?.('partner-a', value)).toBeUndefined();
    }
    expect(listings).toEqual([]);
  });

  it("lists the day the body's first bytes name, before the body is parsed", () => {
    const { processor, listings } = processorWithListings();
    const head = (text: string) => Buffer.from(text);
    const ahead = processor.readAheadFromHead?.(
      'partner-a',
      head('{"batch_id":"b","store_id":"NYC-0001", "business_date" : "2026-03-01","trade_re'),
    );
    expect(ahead).toMatchObject({ storeId: 'NYC-0001', businessDate: '2026-03-01' });
    expect(listings).toEqual([{ partnerId: 'partner-a', storeId: 'NYC-0001', businessDate: '2026-03-01', max: limits.maxBatches }]);

    // Nothing is guessed from an escaped or cut value, or without both fields.
    for (const text of [
      '{"store_id":"NYC\\u002d0001","business_date":"2026-03-01"}',
      '{"business_date":"2026-03-01","store_id":"NYC-00',
      '{"store_id":"NYC-0001","trade_records":[',
      `{"store_id":"${'S'.repeat(129)}","business_date":"2026-03-01"}`,
    ]) {
      expect(processor.readAheadFromHead?.('partner-a', head(text)), text).toBeUndefined();
    }
    expect(listings).toHaveLength(1);
  });

  it('refuses a body that breaks the rules without waiting for the listing, or hearing of its failure', async () => {
    const { processor } = processorWithListings();
    const broken = buildTradeRecordBatch({ businessDate: '2026-03-01' });
    broken.trade_records[0]!.total_amount = '1.001';
    const never = { storeId: broken.store_id, businessDate: '2026-03-01', batches: new Promise<DayBatch[]>(() => undefined) };
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error('the check waited for the listing'));
      }, 2_000);
    });
    const { problems } = await Promise.race([processor.check('partner-a', broken, never), waited]).finally(() => {
      clearTimeout(timer);
    });
    expect(problems.map((problem) => problem.path)).toContain('/trade_records/0/total_amount');

    const failed = Promise.reject(new Error('storage unavailable'));
    failed.catch(() => undefined);
    const failing = { ...never, batches: failed };
    expect((await processor.check('partner-a', broken, failing)).problems).not.toEqual([]);
    // A body within the rules hears of it: the day cannot be counted.
    const valid = buildTradeRecordBatch({ businessDate: '2026-03-01' });
    await expect(processor.check('partner-a', valid, failing)).rejects.toThrow('storage unavailable');
  });

  it('leaves no unhandled rejection when the listing fails and the body is refused before its check', async () => {
    const failing = new InMemoryTradeRecords();
    failing.listDayBatches = () => Promise.reject(new Error('storage unavailable'));
    const processor = tradeRecordsProcessor({ index: failing, storeDayLimits: limits } as unknown as TradeRecordsDependencies);
    const unhandled: unknown[] = [];
    const note = (reason: unknown): void => {
      unhandled.push(reason);
    };
    process.on('unhandledRejection', note);
    try {
      const ahead = processor.readAhead?.('partner-a', buildTradeRecordBatch());
      expect(ahead).toBeDefined();
      // Node reports a rejection nobody handled once the promise continuations queued so far have
      // run, before the event loop's next turn: after that turn, this one can no longer be reported.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('unhandledRejection', note);
    }
    expect(unhandled).toEqual([]);
  });

  it('never lets a head start that fails fail the reading of the body', () => {
    const ingestion = new BatchIngestion({} as BatchIngestionOptions);
    const failing = {
      readAheadFromHead: () => {
        throw new Error('a bug in the guess');
      },
    } as unknown as BatchProcessor<{ batch_id: string }>;
    expect(ingestion.readAheadFromHead('partner-a', failing, Buffer.from('{'))).toBeUndefined();
  });
});
