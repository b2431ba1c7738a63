import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../packages/partner-kit/src/canonicalJson.js';
import { buildUsdTaxExcludedRecord } from '../fixtures/tradeRecordFixtures.js';

describe('canonicalJson', () => {
  it('writes the same content as the same bytes, whatever order its keys were set in', () => {
    const body = { store_id: 'S1', business_date: '2026-03-01', nested: { b: '1', a: [1, { d: 2, c: null }] } };
    const reordered = { nested: { a: [1, { c: null, d: 2 }], b: '1' }, business_date: '2026-03-01', store_id: 'S1' };
    expect(canonicalJson(reordered)).toBe(canonicalJson(body));
    expect(canonicalJson(body)).toBe('{"business_date":"2026-03-01","nested":{"a":[1,{"c":null,"d":2}],"b":"1"},"store_id":"S1"}');
  });

  it('keeps to what JSON.stringify writes: the same value back, the same length', () => {
    const record = buildUsdTaxExcludedRecord({ seq: 3 });
    const text = canonicalJson({ ...record, note: undefined, list: [undefined], at: new Date(0) });
    expect(JSON.parse(text)).toEqual({ ...record, list: [null], at: '1970-01-01T00:00:00.000Z' });
    // pushDay sizes its batches by JSON.stringify: the canonical bytes take the same room.
    expect(Buffer.byteLength(canonicalJson(record))).toBe(Buffer.byteLength(JSON.stringify(record)));
  });
});
