import { describe, expect, it } from 'vitest';
import { maxUnmappedTotalsPerRow, storeDayRow } from '../../src/reports/ReconciledStoreDay.js';
import { storeDayRowWith, unmappedTotals } from '../services/reports/storeDayRowBuilder.js';

const filler = storeDayRowWith('SEA', []);
const day = {
  partnerId: 'acme',
  storeId: 'SEA',
  businessDate: '2026-03-01',
  status: 'MATCHED' as const,
  currency: 'USD',
  expected: filler.expected,
  actual: filler.actual,
  differences: [],
  reconciledAt: filler.reconciled_at,
  closeBatchId: filler.close_batch_id,
  runNumber: 1,
};

const filesId = 'f0'.repeat(32);

describe('storeDayRow', () => {
  it('keeps every held-back total up to the limit, in their order', () => {
    const unmapped = Array.from({ length: maxUnmappedTotalsPerRow }, (_, i) =>
      unmappedTotals('USD', `C${String(i).padStart(5, '0')}`, { count: 1, net: '1' }),
    );
    const row = storeDayRow(day, {
      counts: filler.counts,
      sales: { sales: [], unmapped },
      generatedAt: filler.report_generated_at,
      filesId,
    });
    expect(row.sales.unmapped).toEqual(unmapped);
  });

  it('beyond the limit, keeps the totals with the most transactions, in their order', () => {
    const unmapped = Array.from({ length: maxUnmappedTotalsPerRow + 3 }, (_, i) =>
      unmappedTotals('USD', `C${String(i).padStart(5, '0')}`, { count: i === 7 ? 1 : i % 2 === 0 ? 5 : 2, net: '1' }),
    );
    const row = storeDayRow(day, {
      counts: filler.counts,
      sales: { sales: [], unmapped },
      generatedAt: filler.report_generated_at,
      filesId,
    });
    expect(row.sales.unmapped).toHaveLength(maxUnmappedTotalsPerRow);
    // Dropped: C00007 (one transaction), then the last two of two transactions each.
    const dropped = unmapped.filter((totals) => !row.sales.unmapped.includes(totals)).map((totals) => totals.source_transaction_type);
    expect(dropped).toEqual(['C00007', 'C00999', 'C01001']);
    expect(row.sales.unmapped).toEqual(unmapped.filter((totals) => !dropped.includes(totals.source_transaction_type)));
  });
});
