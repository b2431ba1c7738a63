import { describe, expect, it } from 'vitest';
import type { TradeRecordBatch } from '../../src/domain/model/payloads.js';
import { checkTradeRecordBatch } from '../../src/domain/validation/checkTradeRecordBatch.js';
import { createBodyValidator } from '../../src/validation/createBodyValidator.js';
import { parseJsonBody } from '../../src/validation/parseJsonBody.js';
import { buildTradeRecordBatch, toBytes } from '../fixtures/tradeRecordFixtures.js';

/** Median of several timed runs, in milliseconds. */
function medianMs(runs: number, work: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(runs / 2)]!;
}

describe('validation cost on a full batch (figures are printed; limits are generous)', () => {
  const batch = buildTradeRecordBatch({ recordCount: 500, extraItemsPerRecord: 6 });
  const bytes = toBytes(batch);
  const validator = createBodyValidator();

  it('parses a ~2.5 MB body quickly', () => {
    expect(bytes.length).toBeGreaterThan(2_300_000);
    expect(bytes.length).toBeLessThan(2_800_000);
    for (let i = 0; i < 3; i++) parseJsonBody(bytes);
    const parse = medianMs(9, () => parseJsonBody(bytes));
    const nativeOnly = medianMs(9, () => JSON.parse(new TextDecoder().decode(bytes)) as unknown);
    console.log(
      `parse of ${(bytes.length / 1e6).toFixed(2)} MB: parseJsonBody ${parse.toFixed(1)} ms ` +
        `(TextDecoder + JSON.parse alone ${nativeOnly.toFixed(1)} ms)`,
    );
    expect(parse).toBeLessThan(500);
  });

  it('validates a 500-record batch (schema + semantic checks)', () => {
    const parsed = parseJsonBody(bytes);
    if (!parsed.ok) throw new Error('fixture must parse');
    const body = parsed.value;
    const run = () => {
      const problems = validator.validate('tradeRecords', body);
      const checkProblems = checkTradeRecordBatch(body as TradeRecordBatch, 'USD');
      if (problems.length + checkProblems.length > 0) throw new Error('fixture must be valid');
    };
    for (let i = 0; i < 3; i++) run();
    const schema = medianMs(9, () => validator.validate('tradeRecords', body));
    const semantic = medianMs(9, () => checkTradeRecordBatch(body as TradeRecordBatch, 'USD'));
    const both = medianMs(9, run);
    console.log(
      `500 records: schema ${schema.toFixed(1)} ms, semantic ${semantic.toFixed(1)} ms, both ${both.toFixed(1)} ms ` +
        `= ${Math.round(500 / (both / 1000)).toLocaleString('en-US')} records/s`,
    );
    expect(both).toBeLessThan(1000);
  });
});
