import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ControlTotals } from '../../src/domain/reconciliation/ControlTotals.js';
import { ReconciliationRepository } from '../../src/storage/ReconciliationRepository.js';
import { tableKey } from '../../src/storage/tableKey.js';
import { nothingToSay } from '../fixtures/diagnosisFixtures.js';
import { azuriteTable } from '../support/azuriteClients.js';

const expected: ControlTotals = {
  trade_record_count: 1,
  item_row_count: 1,
  payment_row_count: 1,
  net_sales_amount: '10.00',
  tax_amount: '0.80',
  tip_amount: '0.00',
  payment_total_amount: '10.80',
};
const result = {
  status: 'MATCHED' as const,
  checkedAt: '2026-03-02T10:15:00.000Z',
  actual: expected,
  differences: [],
  diagnosis: nothingToSay,
};

describe('ReconciliationRepository', () => {
  it('stores a result over a row written before a control total existed, comparing the figures both have', async () => {
    const table = await azuriteTable(`results${randomUUID().replace(/-/g, '').slice(0, 12)}`);
    const results = new ReconciliationRepository(table);
    const partnerId = `p-${randomUUID()}`;
    const day = ['S1', '2026-03-01'] as const;
    await results.markReceived(partnerId, ...day, { batchId: 'close-1', receivedAt: '2026-03-02T09:00:00.000Z', expected });
    await results.saveResult(partnerId, ...day, 'close-1', { ...result, runNumber: 1 });
    // What an earlier release stored: the same outcome, without two of today's control totals.
    const { tip_amount: _amount, payment_row_count: _count, ...olderTotals } = expected;
    const older = { status: 'MATCHED', expected: olderTotals, actual: olderTotals };
    await table.updateEntity({ partitionKey: tableKey(partnerId, day[0]), rowKey: day[1], lastOutcome: JSON.stringify(older) }, 'Merge');

    const saved = await results.saveResult(partnerId, ...day, 'close-1', { ...result, runNumber: 2 });

    // Nothing the partner saw changed: no reconciliation.changed for the release that added the total.
    expect(saved).toMatchObject({ status: 'MATCHED', runNumber: 2, changed: false });
    expect(await results.get(partnerId, ...day)).toMatchObject({ runNumber: 2, actual: expected });

    // A figure both have that differs is a change, as before.
    await table.updateEntity(
      {
        partitionKey: tableKey(partnerId, day[0]),
        rowKey: day[1],
        lastOutcome: JSON.stringify({ ...older, actual: { ...olderTotals, tax_amount: '0.90' } }),
      },
      'Merge',
    );
    expect(await results.saveResult(partnerId, ...day, 'close-1', { ...result, runNumber: 3 })).toMatchObject({ changed: true });
  });
});
