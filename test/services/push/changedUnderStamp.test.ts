import { describe, expect, it } from 'vitest';
import type { TradeRecord } from '../../../src/domain/model/payloads.js';
import { changedUnderStamp } from '../../../src/services/push/changedUnderStamp.js';
import { InMemoryRawBatches } from '../../support/memory/InMemoryRawBatches.js';
import { buildUsdTaxExcludedRecord, fixtureBusinessDate } from '../../fixtures/tradeRecordFixtures.js';

const partnerId = 'partner-a';
const stamp = { version: 1, lastModifiedAt: '2026-03-01T12:00:00-05:00' };
const one = buildUsdTaxExcludedRecord({ tradeRecordId: 'T-1', ...stamp });
const two = buildUsdTaxExcludedRecord({ tradeRecordId: 'T-2', ...stamp });

/** Raw batches holding batch `b-1` with T-1 and T-2, counting the reads. */
async function storedBatches() {
  const raw = new InMemoryRawBatches();
  const body = { batch_id: 'b-1', store_id: one.store_id, business_date: fixtureBusinessDate, batch_seq: 1, trade_records: [one, two] };
  await raw.putOnce(partnerId, 'b-1', Buffer.from(JSON.stringify(body)), 'hash');
  let reads = 0;
  const counting = Object.assign(Object.create(raw) as InMemoryRawBatches, {
    get: (p: string, b: string) => {
      reads++;
      return raw.get(p, b);
    },
  });
  return { raw: counting, reads: () => reads };
}

describe('a copy under the stored stamp with the same figures', () => {
  it('reads nothing when no copy tied', async () => {
    const { raw, reads } = await storedBatches();
    expect(await changedUnderStamp(raw, partnerId, [one], undefined)).toEqual(new Set());
    expect(await changedUnderStamp(raw, partnerId, [one], new Map())).toEqual(new Set());
    expect(reads()).toBe(0);
  });

  it('is changed when anything but its stamp differs, whatever the order of its fields; the stored batch is read once', async () => {
    const { raw, reads } = await storedBatches();
    const reordered = Object.fromEntries(
      Object.entries({ ...one, last_modified_at: '2026-03-01T17:00:00Z' }).reverse(),
    ) as unknown as TradeRecord;
    const otherEmployee: TradeRecord = { ...two, employee_id: 'E-9' };
    const kept = new Map([
      ['T-1', 'b-1'],
      ['T-2', 'b-1'],
    ]);
    expect(await changedUnderStamp(raw, partnerId, [reordered, otherEmployee], kept)).toEqual(new Set(['T-2']));
    expect(reads()).toBe(1);
  });

  it('compares as the same when the stored batch cannot be read', async () => {
    const { raw } = await storedBatches();
    expect(await changedUnderStamp(raw, partnerId, [{ ...one, employee_id: 'E-9' }], new Map([['T-1', 'b-missing']]))).toEqual(new Set());
  });
});
