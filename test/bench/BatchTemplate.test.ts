import { describe, expect, it } from 'vitest';
import { BatchTemplate } from '../../bench/BatchTemplate.js';
import { benchBusinessDate } from '../../bench/benchBusinessDate.js';
import type { TradeRecordBatch } from '../../src/domain/model/payloads.js';
import { checkTradeRecordBatch } from '../../src/domain/validation/checkTradeRecordBatch.js';
import { createBodyValidator } from '../../src/bodyParsing/createBodyValidator.js';
import { parseJsonBody } from '../../src/bodyParsing/parseJsonBody.js';
import { readSchemaFolder } from '../../src/bodyParsing/readSchemaFolder.js';

const template = new BatchTemplate({ storeId: 'TPL-0001', businessDate: benchBusinessDate, recordCount: 40, seed: 3 });

/** Parses, schema-checks and semantically checks a rendered body as a push would; returns the batch. */
function acceptedBatch(bytes: Buffer): TradeRecordBatch {
  const parsed = parseJsonBody(bytes);
  if (!parsed.ok) throw new Error(`did not parse: ${JSON.stringify(parsed.problems)}`);
  expect(createBodyValidator(readSchemaFolder()).validate('tradeRecords', parsed.value)).toEqual([]);
  const batch = parsed.value as TradeRecordBatch;
  expect(checkTradeRecordBatch(batch, 'USD')).toEqual([]);
  return batch;
}

describe('BatchTemplate', () => {
  it('renders a batch on another business date that a push accepts, every date in it moved', () => {
    const bytes = template.render(0x2a, '2025-12-31');
    expect(bytes.length).toBe(template.size);
    const text = bytes.toString('utf8');
    expect(text).not.toContain(benchBusinessDate);

    const batch = acceptedBatch(bytes);
    expect(batch.batch_id).toBe(BatchTemplate.batchIdFor(0x2a));
    expect(batch.business_date).toBe('2025-12-31');
    const timestamps = text.match(/"\d{4}-\d{2}-\d{2}T[^"]*"/g) ?? [];
    expect(timestamps.length).toBeGreaterThan(batch.trade_records.length);
    for (const timestamp of timestamps) expect(timestamp.startsWith('"2025-12-31T')).toBe(true);
    for (const record of batch.trade_records) expect(record.business_date).toBe('2025-12-31');
  });

  it('leaves the date alone when none is given', () => {
    const batch = acceptedBatch(template.render(7));
    expect(batch.business_date).toBe(benchBusinessDate);
  });

  it('refuses a date that would not fit the template', () => {
    expect(() => template.render(1, '2025-1-1')).toThrow(/YYYY-MM-DD/);
  });
});
