import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeRecord, TradeRecordBatch } from '../../src/domain/model/payloads.js';
import { RawBatchStore } from '../../src/storage/RawBatchStore.js';
import { passesGtinCheck } from '../../src/domain/validation/luhn.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import {
  cardNegatives,
  cardPositiveCases,
  cardPositives,
  memberIdNegatives,
  memberIdPositives,
} from '../domain/validation/sensitiveDataLabelledSet.js';
import { buildDayBatch, businessDateOf, ledgerState, preparePartner } from './support/dayScenario.js';
import { seededRandom } from './support/random.js';
import { errorOf } from '../support/responseBodies.js';

let service: TestService;
let partner: TestPartner;
const random = seededRandom(99);

beforeAll(async () => {
  service = await startTestService();
  partner = await preparePartner(service, random);
});
afterAll(async () => {
  await service.stop();
});

/** Free-text fields a card number gets typed or pasted into, rotated over the set (any text passes their schema). */
const placements: { readonly field: string; readonly place: (record: TradeRecord, value: string) => void }[] = [
  { field: 'items/0/product_name', place: (r, v) => void (r.items[0]!.product_name = `Combo ${v}`) },
  { field: 'payments/1/payment_method_detail', place: (r, v) => void (r.payments[1]!.payment_method_detail = v) },
  { field: 'items/1/modifiers/0/option_name', place: (r, v) => void (r.items[1]!.modifiers[0]!.option_name = v) },
];

const cardMessage = 'appears to hold a payment card number, which must never be sent';

/**
 * One batch per 50 values, one value per record: an answer lists up to 50 problems, so every
 * record's verdict is visible. Returns, per value, whether its record was refused as a card number.
 */
async function verdicts(values: readonly string[], tag: string): Promise<{ flagged: boolean[]; batches: TradeRecordBatch[] }> {
  const flagged: boolean[] = [];
  const batches: TradeRecordBatch[] = [];
  for (let start = 0; start < values.length; start += 50) {
    const slice = values.slice(start, start + 50);
    const batch = buildDayBatch(random, 'NYC-0001', businessDateOf(5000), slice.length, `${tag}-${start}`);
    const paths = slice.map((value, i) => {
      const placement = placements[(start + i) % placements.length]!;
      placement.place(batch.trade_records[i]!, value);
      return `/trade_records/${i}/${placement.field}`;
    });
    const response = await service.call(partner, 'POST', 'trade-records', batch);
    expect([202, 400]).toContain(response.status);
    const details = response.status === 400 ? (errorOf(response).details ?? []) : [];
    const refused = new Set(details.filter((d) => d.message === cardMessage).map((d) => d.path));
    expect(refused.size, JSON.stringify(response.body).slice(0, 300)).toBe(details.length);
    for (const value of slice) expect(JSON.stringify(response.body)).not.toContain(value);
    flagged.push(...paths.map((path) => refused.has(path)));
    batches.push(batch);
  }
  return { flagged, batches };
}

function batchWith(tag: string, place: (b: TradeRecordBatch) => void): TradeRecordBatch {
  const batch = buildDayBatch(random, 'NYC-0001', businessDateOf(5000), 1, tag);
  place(batch);
  return batch;
}

/** Pushes one batch per value, eight at a time; counts the answers that are not 202. */
async function countNot202(values: readonly string[], build: (value: string, i: number) => TradeRecordBatch): Promise<number> {
  let count = 0;
  for (let start = 0; start < values.length; start += 8) {
    const answers = await Promise.all(
      values.slice(start, start + 8).map((v, k) => service.call(partner, 'POST', 'trade-records', build(v, start + k))),
    );
    count += answers.filter((a) => a.status !== 202).length;
  }
  return count;
}

async function nothingKept(batch: TradeRecordBatch): Promise<string[]> {
  const problems: string[] = [];
  if ((await ledgerState(service, partner.partnerId, batch.batch_id)) !== 'absent') problems.push(`ledger row of ${batch.batch_id}`);
  if (await new RawBatchStore(service.services.storage.rawBatches).get(partner.partnerId, batch.batch_id))
    problems.push(`blob of ${batch.batch_id}`);
  return problems;
}

describe('card numbers and personal data over HTTP, on the labelled set', () => {
  it('rejects card numbers in any spelling before anything is stored or logged; reports recall and false positives', async () => {
    const positives = await verdicts(cardPositives, 'card');
    const caught = positives.flagged.filter(Boolean).length;
    const kept: string[] = [];
    for (const batch of positives.batches) kept.push(...(await nothingKept(batch)));
    const logged = cardPositives.filter((value) => service.logs.some((line) => line.includes(value)));
    const negatives = await verdicts(cardNegatives, 'neg');
    const falsePositives = negatives.flagged.filter(Boolean).length;
    console.log(
      `card numbers over HTTP: recall ${caught}/${cardPositives.length} = ${((caught / cardPositives.length) * 100).toFixed(1)}%, ` +
        `false positives on realistic ids ${falsePositives}/${cardNegatives.length} = ${((falsePositives / cardNegatives.length) * 100).toFixed(1)}%`,
    );
    // The only misses allowed: card numbers of 13 or 14 digits that are also valid barcodes.
    cardPositiveCases.forEach(({ text, pan }, i) => {
      if (positives.flagged[i]) return;
      expect(pan, JSON.stringify(text)).toMatch(/^[0-9]{13,14}$/);
      expect(passesGtinCheck(pan), JSON.stringify(text)).toBe(true);
    });
    expect(cardPositives.length).toBeGreaterThanOrEqual(300);
    expect(cardNegatives.length).toBeGreaterThanOrEqual(300);
    expect(kept).toEqual([]);
    expect(logged).toEqual([]);
    expect(falsePositives).toBe(0);
  });

  it('rejects a member_id that is an e-mail, phone or card number, and passes internal ids', async () => {
    let caught = 0;
    const kept: string[] = [];
    for (const [i, member] of memberIdPositives.entries()) {
      const batch = batchWith(`mem-${i}`, (b) => void (b.trade_records[0]!.member_id = member));
      const r = await service.call(partner, 'POST', 'trade-records', batch);
      if (r.status === 400) caught += 1;
      expect(JSON.stringify(r.body)).not.toContain(member);
      kept.push(...(await nothingKept(batch)).map((p) => `${member}: ${p}`));
      if (service.logs.some((line) => line.includes(member))) kept.push(`${member}: log line`);
    }
    const falsePositives = await countNot202(memberIdNegatives, (member, i) =>
      batchWith(`memneg-${i}`, (b) => void (b.trade_records[0]!.member_id = member.slice(0, 50))),
    );
    console.log(
      `member_id over HTTP: recall ${caught}/${memberIdPositives.length}, false positives ${falsePositives}/${memberIdNegatives.length}`,
    );
    expect(caught).toBe(memberIdPositives.length);
    expect(kept).toEqual([]);
    expect(falsePositives).toBe(0);
  });
});
