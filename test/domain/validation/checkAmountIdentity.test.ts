import { describe, expect, it } from 'vitest';
import { checkAmountIdentity } from '../../../src/domain/validation/checkAmountIdentity.js';
import { buildJpyTaxIncludedRecord, buildTradeRecordBatch, buildUsdTaxExcludedRecord } from '../../fixtures/tradeRecordFixtures.js';
import { stringMatching } from '../../support/matchers.js';

describe('checkAmountIdentity', () => {
  it('holds for the USD tax-excluded and JPY tax-included fixtures', () => {
    expect(checkAmountIdentity(buildUsdTaxExcludedRecord(), 0)).toBeUndefined();
    expect(checkAmountIdentity(buildJpyTaxIncludedRecord(), 0)).toBeUndefined();
    const batch = buildTradeRecordBatch({ recordCount: 50, extraItemsPerRecord: 7 });
    expect(batch.trade_records.flatMap((record, index) => checkAmountIdentity(record, index) ?? [])).toEqual([]);
  });

  it('names the record by its index when the tax-excluded identity fails', () => {
    const record = { ...buildUsdTaxExcludedRecord(), total_amount: '0.01' };
    expect(checkAmountIdentity(record, 2)).toEqual({
      code: 'AMOUNT_MISMATCH',
      path: 'trade_records[2]',
      message: stringMatching(/prices exclude tax/),
    });
  });

  it('uses the formula chosen by prices_include_tax', () => {
    // The same amounts, read as tax-included: tax is no longer added, so the total is off by it.
    const excluded = buildUsdTaxExcludedRecord();
    expect(checkAmountIdentity({ ...excluded, prices_include_tax: true }, 1)).toMatchObject({ path: 'trade_records[1]' });
    const included = buildJpyTaxIncludedRecord();
    const withTaxAdded = { ...included, total_amount: String(Number(included.total_amount) + Number(included.tax_amount)) };
    expect(checkAmountIdentity(withTaxAdded, 0)?.message).toMatch(/prices include tax/);
  });

  it('is exact: no floating-point drift over many terms', () => {
    const record = {
      ...buildUsdTaxExcludedRecord(),
      subtotal_amount: '0.30',
      discount_amount: '0.10',
      tax_amount: '0.20',
      service_charge_amount: '0.10',
      tip_amount: '0.10',
      rounding_amount: '-0.01',
      total_amount: '0.59',
    };
    expect(checkAmountIdentity(record, 0)).toBeUndefined();
  });

  it('handles negative RETURN amounts', () => {
    const record = buildJpyTaxIncludedRecord();
    for (const field of ['subtotal_amount', 'tax_amount', 'total_amount'] as const) record[field] = `-${record[field]}`;
    expect(checkAmountIdentity(record, 0)).toBeUndefined();
  });
});
