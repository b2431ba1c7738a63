import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { contentBatchId } from '../../packages/partner-kit/src/contentBatchId.js';
import { splitIntoBatches } from '../../packages/partner-kit/src/splitIntoBatches.js';
import { validatePayload } from '../../packages/partner-kit/src/validatePayload.js';
import { buildUsdTaxExcludedRecord, fixtureBusinessDate, usdStoreId } from '../fixtures/tradeRecordFixtures.js';

const records = Array.from({ length: 5 }, (_, seq) => buildUsdTaxExcludedRecord({ seq }));
const idsOf = (batches: ReturnType<typeof splitIntoBatches>) => batches.map((batch) => batch.batch_id);
const split = (from = records, firstSeq = 1, seed = '') =>
  splitIntoBatches(from, 2, 5 * 1024 * 1024, usdStoreId, fixtureBusinessDate, firstSeq, seed);

describe('contentBatchId', () => {
  it('gives the same batch the same id, each batch of a day its own', () => {
    const ids = idsOf(split());
    expect(ids).toHaveLength(3);
    expect(new Set(ids).size).toBe(3);
    expect(idsOf(split(structuredClone(records)))).toEqual(ids);
  });

  it("is an RFC 9562 UUID of version 8, which the service's uuid definition and the kit's validation take", () => {
    const common = JSON.parse(readFileSync(new URL('../../schemas/common.schema.json', import.meta.url), 'utf8')) as {
      $defs: { uuid: object };
    };
    // The definition every batch_id is checked against, with the format library the service uses.
    const ajv = new Ajv2020({ strict: true });
    addFormats(ajv, ['uuid']);
    const isServiceUuid = ajv.compile(common.$defs.uuid);
    for (const batch of split()) {
      expect(batch.batch_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(isServiceUuid(batch.batch_id)).toBe(true);
      expect(validatePayload('trade-records', Buffer.from(JSON.stringify(batch))).ok).toBe(true);
    }
  });

  it('changes with anything the batch says, with its batch_seq and with the seed', () => {
    const [first] = idsOf(split());
    const changed = records.map((record, index) => (index === 0 ? { ...record, version: record.version + 1 } : record));
    expect(idsOf(split(changed))[0]).not.toBe(first);
    expect(idsOf(split(records, 7))[0]).not.toBe(first);
    expect(idsOf(split(records, 1, 'again'))[0]).not.toBe(first);
  });

  it('reads past key order and the batch_id a body already holds', () => {
    const body = { store_id: 'S1', business_date: '2026-03-01', nested: { b: 1, a: [1, { d: 2, c: null }] } };
    const reordered = { nested: { a: [1, { c: null, d: 2 }], b: 1 }, business_date: '2026-03-01', store_id: 'S1' };
    expect(contentBatchId('daily-close', reordered)).toBe(contentBatchId('daily-close', body));
    expect(contentBatchId('daily-close', { ...body, batch_id: 'x' })).toBe(contentBatchId('daily-close', body));
    expect(contentBatchId('trade-records', body)).not.toBe(contentBatchId('daily-close', body));
  });
});
