import type { DailyCloseTotals } from '../../../packages/partner-kit/src/PosClient.js';
import type { TradeRecord } from '../../../packages/partner-kit/src/contractTypes.js';
import { controlTotals } from '../../e2e/support/storeDayKit.js';
import { fixtureBusinessDate, usdStoreId, USD } from '../../fixtures/tradeRecordFixtures.js';

/** The close of the USD store-day's `records`, as the partner counts it with `mapping` in effect. */
export function closeOfRecords(records: readonly TradeRecord[], mapping: Record<string, string> = {}): DailyCloseTotals {
  return {
    store_id: usdStoreId,
    business_date: fixtureBusinessDate,
    currency: 'USD',
    closed_at: '2026-03-02T03:55:00-05:00',
    ...controlTotals(USD, records, { mapping }),
  };
}
