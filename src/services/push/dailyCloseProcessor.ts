import type { DailyClose } from '../../domain/model/payloads.js';
import type { Warning } from '../../domain/model/Warning.js';
import { controlTotalsOf } from '../../domain/reconciliation/controlTotalsOf.js';
import { checkBusinessDate } from '../../domain/validation/checkBusinessDate.js';
import { checkDailyClose } from '../../domain/validation/checkDailyClose.js';
import type { DayCloses } from '../ports/DayCloses.js';
import type { MessageQueue } from '../ports/MessageQueue.js';
import type { Reconciliations } from '../ports/Reconciliations.js';
import type { StoreMasterData } from '../ports/StoreMasterData.js';
import type { ReconcileMessage } from '../ReconcileMessage.js';
import type { RowReadAhead } from '../../storage/RowReadAhead.js';
import type { BatchProcessor } from './BatchProcessor.js';
import { storeNotUploaded } from './storeNotUploaded.js';

export interface DailyCloseDependencies {
  readonly stores: StoreMasterData;
  readonly closes: DayCloses;
  readonly results: Reconciliations;
  readonly reconcileQueue: MessageQueue<ReconcileMessage>;
  readonly reconcileDelaySeconds: number;
  readonly clock: () => Date;
  /** Real elapsed time in ms (`performance.now`), which the queue's visibility delay runs on; never the test clock. */
  readonly elapsedMs: () => number;
}

/**
 * POST /daily-close (contract §4.3): the last close received counts; each receipt sets the day to
 * RECEIVED and schedules its reconciliation `reconcileDelaySeconds` later.
 */
export function dailyCloseProcessor(deps: DailyCloseDependencies): BatchProcessor<DailyClose> {
  /** The rows `apply` writes, read while the ledger entry and the body are stored (by body: one push). */
  const readsAhead = new WeakMap<DailyClose, { close?: RowReadAhead | undefined; day?: RowReadAhead | undefined }>();
  return {
    kind: 'dailyClose',
    storesOf: (body) => [{ storeId: body.store_id, path: '/store_id' }],
    recordCount: () => 1,

    async check(partnerId, body) {
      const store = await deps.stores.get(partnerId, body.store_id);
      const outOfWindow = checkBusinessDate(body.business_date, deps.clock(), '/business_date');
      const problems = checkDailyClose(body, store?.currency);
      return { problems: outOfWindow ? [outOfWindow, ...problems] : problems };
    },

    prepare(partnerId, body) {
      readsAhead.set(body, {
        close: deps.closes.readAhead?.(partnerId, body.store_id, body.business_date),
        day: deps.results.readAhead?.(partnerId, body.store_id, body.business_date),
      });
    },

    async apply({ partnerId, body, receivedAt }) {
      const ahead = readsAhead.get(body);
      readsAhead.delete(body);
      // The check read the store moments ago, so the cache usually answers.
      const storeWarnings = async (): Promise<Warning[]> =>
        (await deps.stores.get(partnerId, body.store_id)) ? [] : [storeNotUploaded("the close's currency")];
      // Named after the close, so that the close applied again after a crash names the same run.
      const runId = `close-${body.batch_id}`;
      const dueAt = new Date(deps.clock().getTime() + deps.reconcileDelaySeconds * 1000).toISOString();
      const message: ReconcileMessage = {
        partnerId,
        storeId: body.store_id,
        businessDate: body.business_date,
        closeBatchId: body.batch_id,
        runId,
        dueAt,
      };
      const storeClose = () => deps.closes.putIfLatest(partnerId, { close: body, receivedAt }, ahead?.close);
      // Both rows keep the close that comes last in the same order (`closeComesAfter`), so a close
      // not in effect leaves the day's row as it is, whichever of the two is written first.
      const markDay = () =>
        deps.results.markReceived(
          partnerId,
          body.store_id,
          body.business_date,
          {
            batchId: body.batch_id,
            receivedAt,
            expected: controlTotalsOf(body),
            run: { runId, dueAt },
          },
          ahead?.day,
        );
      const schedule = () => deps.reconcileQueue.send(message, deps.reconcileDelaySeconds);

      if (deps.reconcileDelaySeconds === 0) {
        // A message visible at once could be run before the close is stored, find no such close
        // and be dropped: it is sent only after both rows are written.
        const inEffect = await storeClose();
        if (inEffect) {
          await markDay();
          await schedule();
        }
        return storeWarnings();
      }
      // The close, the day's RECEIVED mark and the reconcile message go side by side. A crash (or a
      // failed write) between any of them cannot lose the day: the batch is committed only after
      // all three, so a retry or the sweep applies the close again from its stored body and sends
      // the message again (same run id; reconciling twice changes nothing). A message cannot be run
      // before the rows are written either: it stays invisible for the delay, counted from before
      // it was sent, and the writes are checked to have finished within it; writes that took longer
      // send it once more. A message for a close that is not in effect does nothing when it runs.
      const started = deps.elapsedMs();
      const [inEffect, , , found] = await Promise.all([storeClose(), markDay(), schedule(), storeWarnings()]);
      if (inEffect && deps.elapsedMs() - started >= deps.reconcileDelaySeconds * 1000) await schedule();
      return found;
    },
  };
}
