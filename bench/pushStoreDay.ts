import { benchBusinessDate, expectAccepted, type BenchEnvironment, type BenchPartner } from './BenchEnvironment.js';
import { emptyDayTotals, generateTradeRecordBatch, type DayTotals } from './tradeRecordGenerator.js';

export interface StoreDayLoad {
  readonly storeId: string;
  readonly transactions: number;
  readonly recordsPerBatch: number;
  /** Batch b's ids derive from tagBase + b, so days loaded by different measurements never collide. */
  readonly tagBase: number;
  /** Starts the trade record ids (`T`, `R`), per measurement. */
  readonly idLetter: string;
  /** Batch b's generator seed is seedBase + b. */
  readonly seedBase: number;
}

export interface LoadedStoreDay {
  readonly batchCount: number;
  /** What the generated batches add up to: the daily close's control totals. */
  readonly totals: DayTotals;
}

/**
 * Loads a generated store-day through the push endpoint, three batches in flight at a time (as a
 * partner's POS would send a day's backlog).
 */
export async function pushStoreDay(env: BenchEnvironment, partner: BenchPartner, load: StoreDayLoad): Promise<LoadedStoreDay> {
  const perBatch = Math.min(load.recordsPerBatch, load.transactions);
  const batchCount = Math.ceil(load.transactions / perBatch);
  const totals = emptyDayTotals();
  let next = 0;
  const pushNext = async (): Promise<void> => {
    for (let b = next++; b < batchCount; b = next++) {
      const tag = (load.tagBase + b).toString(16).padStart(8, '0');
      const body = generateTradeRecordBatch({
        batchId: `${tag}-0000-4000-8000-000000000000`,
        storeId: load.storeId,
        businessDate: benchBusinessDate,
        batchSeq: b + 1,
        recordCount: Math.min(perBatch, load.transactions - b * perBatch),
        idPrefix: `${load.idLetter}-${tag}`,
        seed: load.seedBase + b,
        totals,
      });
      expectAccepted(await env.send(partner, 'POST', 'trade-records', JSON.stringify(body)), 'trade-records');
    }
  };
  await Promise.all([pushNext(), pushNext(), pushNext()]);
  return { batchCount, totals };
}
