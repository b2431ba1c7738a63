import type { DailyClose } from '../../domain/model/payloads.js';
import type { ControlTotals } from '../../domain/reconciliation/ControlTotals.js';
import { checkBusinessDate } from '../../domain/validation/checkBusinessDate.js';
import { checkDailyClose } from '../../domain/validation/checkDailyClose.js';
import type { DayCloses } from '../ports/DayCloses.js';
import type { MessageQueue } from '../ports/MessageQueue.js';
import type { Reconciliations } from '../ports/Reconciliations.js';
import type { StoreMasterData } from '../ports/StoreMasterData.js';
import type { ReconcileMessage } from '../ReconcileMessage.js';
import type { BatchProcessor } from './BatchProcessor.js';

export interface DailyCloseDependencies {
  readonly stores: StoreMasterData;
  readonly closes: DayCloses;
  readonly results: Reconciliations;
  readonly reconcileQueue: MessageQueue<ReconcileMessage>;
  readonly reconcileDelaySeconds: number;
  readonly clock: () => Date;
}

/**
 * POST /daily-close (contract §4.3): the last close received counts; each receipt sets the day to
 * RECEIVED and schedules its reconciliation `reconcileDelaySeconds` later.
 */
export function dailyCloseProcessor(deps: DailyCloseDependencies): BatchProcessor<DailyClose> {
  return {
    kind: 'dailyClose',
    storeIdsOf: (body) => [body.store_id],
    recordCount: () => 1,

    async check(partnerId, body) {
      const store = await deps.stores.get(partnerId, body.store_id);
      const outOfWindow = checkBusinessDate(body.business_date, deps.clock(), '/business_date');
      const problems = checkDailyClose(body, store?.currency);
      return { problems: outOfWindow ? [outOfWindow, ...problems] : problems };
    },

    async apply({ partnerId, body, receivedAt }) {
      const inEffect = await deps.closes.putIfLatest(partnerId, { close: body, receivedAt });
      if (!inEffect) return [];
      await deps.results.markReceived(partnerId, body.store_id, body.business_date, {
        batchId: body.batch_id,
        receivedAt,
        expected: controlTotalsOf(body),
      });
      await deps.reconcileQueue.send(
        { partnerId, storeId: body.store_id, businessDate: body.business_date, closeBatchId: body.batch_id },
        deps.reconcileDelaySeconds,
      );
      return [];
    },
  };
}

export function controlTotalsOf(close: DailyClose): ControlTotals {
  return {
    trade_record_count: close.trade_record_count,
    item_row_count: close.item_row_count,
    payment_row_count: close.payment_row_count,
    net_sales_amount: close.net_sales_amount,
    tax_amount: close.tax_amount,
    tip_amount: close.tip_amount,
    payment_total_amount: close.payment_total_amount,
  };
}
