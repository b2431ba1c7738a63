import { performance } from 'node:perf_hooks';
import type { DailyClose } from '../src/domain/model/payloads.js';
import type { ReconcileMessage } from '../src/services/ReconcileMessage.js';
import { benchBusinessDate, pushUntilAcknowledged, type BenchEnvironment, type BenchPartner } from './BenchEnvironment.js';
import { dailyClose } from './dailyClose.js';
import { emptyDayTotals, generateTradeRecordBatch } from './tradeRecordGenerator.js';

export interface LoadedStoreDay {
  readonly batchCount: number;
  readonly loadSeconds: number;
  /** Pushes answered 5xx (a missed storage deadline) and sent again. */
  readonly resends: number;
  /** The day's close, with the control totals of what was pushed; not sent yet. */
  readonly close: DailyClose;
  /** The reconcile message of that close. */
  readonly message: ReconcileMessage;
}

/**
 * Pushes a generated store-day of `transactions` through the push endpoint, three batches in
 * flight, and builds its daily close. `tagBase` keeps batch and transaction ids apart between days.
 */
export async function loadStoreDay(
  env: BenchEnvironment,
  partner: BenchPartner,
  day: { readonly storeId: string; readonly transactions: number; readonly recordsPerBatch: number; readonly tagBase: number },
): Promise<LoadedStoreDay> {
  const { storeId, transactions, tagBase } = day;
  const perBatch = Math.min(day.recordsPerBatch, transactions);
  const batchCount = Math.ceil(transactions / perBatch);
  const totals = emptyDayTotals();
  const loadStarted = performance.now();
  let next = 0;
  let resends = 0;
  const pushNext = async (): Promise<void> => {
    for (let b = next++; b < batchCount; b = next++) {
      const tag = (tagBase + b).toString(16).padStart(8, '0');
      const body = generateTradeRecordBatch({
        batchId: `${tag}-0000-4000-8000-000000000000`,
        storeId,
        businessDate: benchBusinessDate,
        batchSeq: b + 1,
        recordCount: Math.min(perBatch, transactions - b * perBatch),
        idPrefix: `T-${tag}`,
        seed: tagBase + b,
        totals,
      });
      await pushUntilAcknowledged(env, partner, JSON.stringify(body), () => {
        resends += 1;
      });
    }
  };
  await Promise.all([pushNext(), pushNext(), pushNext()]);
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const closeBatchId = `${(tagBase + 0xfffff).toString(16).padStart(8, '0')}-0000-4000-8000-00000000c105`;
  const close = dailyClose(closeBatchId, storeId, batchCount, totals);
  const message: ReconcileMessage = { partnerId: partner.partnerId, storeId, businessDate: benchBusinessDate, closeBatchId };
  return { batchCount, loadSeconds, resends, close, message };
}
