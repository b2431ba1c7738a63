import { performance } from 'node:perf_hooks';
import type { DailyClose } from '../src/domain/model/payloads.js';
import type { ReconcileMessage } from '../src/services/ReconcileMessage.js';
import { pushUntilAcknowledged, type BenchEnvironment, type BenchPartner } from './BenchEnvironment.js';
import { benchBusinessDate } from './benchBusinessDate.js';
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

export interface StoreDayToLoad {
  readonly storeId: string;
  readonly transactions: number;
  readonly recordsPerBatch: number;
  /** Keeps batch and transaction ids apart between days. */
  readonly tagBase: number;
  /** Batches in flight at once; default 3. */
  readonly inFlight?: number;
  /** Told of every push answered 5xx before it is sent again. */
  readonly onResend?: (batchSeq: number, status: number) => void;
}

/** Pushes a generated store-day through the push endpoint and builds its daily close. */
export async function loadStoreDay(env: BenchEnvironment, partner: BenchPartner, day: StoreDayToLoad): Promise<LoadedStoreDay> {
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
      await pushUntilAcknowledged(env, partner, JSON.stringify(body), (status) => {
        resends += 1;
        day.onResend?.(b + 1, status);
      });
    }
  };
  await Promise.all(Array.from({ length: day.inFlight ?? 3 }, pushNext));
  const loadSeconds = (performance.now() - loadStarted) / 1000;
  const closeBatchId = `${(tagBase + 0xfffff).toString(16).padStart(8, '0')}-0000-4000-8000-00000000c105`;
  const close = dailyClose(closeBatchId, storeId, batchCount, totals);
  const message: ReconcileMessage = { partnerId: partner.partnerId, storeId, businessDate: benchBusinessDate, closeBatchId };
  return { batchCount, loadSeconds, resends, close, message };
}
