import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeRecordBatch } from '../../src/domain/model/payloads.js';
import { RawBatchStore } from '../../src/storage/RawBatchStore.js';
import { passesGtinCheck } from '../../src/domain/validation/luhn.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { cardNegatives, cardPositives, memberIdNegatives, memberIdPositives } from '../domain/validation/sensitiveDataLabelledSet.js';
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

/** Fields a card number might be typed into by mistake, rotated over the set. */
const placements: ((batch: TradeRecordBatch, value: string) => void)[] = [
  (b, v) => void (b.trade_records[0]!.employee_id = v),
  (b, v) => void (b.trade_records[0]!.fiscal_document_no = v),
  (b, v) => void (b.trade_records[0]!.payments[1]!.payment_method_detail = v),
  (b, v) => void (b.trade_records[0]!.items[0]!.product_name = `Combo ${v}`),
  (b, v) => void (b.trade_records[0]!.order_source_detail = v.slice(0, 50)),
  (b, v) => void (b.trade_records[0]!.payments[0]!.payment_id = v),
];

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

async function nothingKept(batch: TradeRecordBatch, value: string): Promise<string[]> {
  const problems: string[] = [];
  if ((await ledgerState(service, partner.partnerId, batch.batch_id)) !== 'absent') problems.push('ledger row');
  if (await new RawBatchStore(service.services.storage.rawBatches).get(partner.partnerId, batch.batch_id)) problems.push('blob');
  if (service.logs.some((line) => line.includes(value))) problems.push('log line');
  return problems;
}

describe('card numbers and personal data over HTTP, on the labelled set', () => {
  it('rejects card numbers in any field before anything is stored or logged; reports recall and false positives', async () => {
    let caught = 0;
    const missed: string[] = [];
    const kept: string[] = [];
    for (const [i, card] of cardPositives.entries()) {
      const batch = batchWith(`card-${i}`, (b) => {
        placements[i % placements.length]!(b, card);
      });
      const r = await service.call(partner, 'POST', 'trade-records', batch);
      if (r.status === 400 && errorOf(r).code === 'INVALID_PAYLOAD') caught += 1;
      else missed.push(card);
      expect(JSON.stringify(r.body)).not.toContain(card);
      if (r.status === 400) kept.push(...(await nothingKept(batch, card)).map((p) => `${card}: ${p}`));
    }
    // Realistic ids where a POS puts them: fiscal numbers and payment ids.
    const falsePositives = await countNot202(cardNegatives, (id, i) =>
      batchWith(`neg-${i}`, (b) => {
        b.trade_records[0]!.fiscal_document_no = id.slice(0, 128);
        b.trade_records[0]!.payments[0]!.payment_id = id.slice(0, 128);
      }),
    );
    console.log(
      `card numbers over HTTP: recall ${caught}/${cardPositives.length} = ${((caught / cardPositives.length) * 100).toFixed(1)}%, ` +
        `false positives on realistic ids ${falsePositives}/${cardNegatives.length} = ${((falsePositives / cardNegatives.length) * 100).toFixed(1)}%`,
    );
    // The only misses allowed: 13/14 digits that are also valid barcodes.
    for (const value of missed) {
      expect(value).toMatch(/^[0-9]{13,14}$/);
      expect(passesGtinCheck(value)).toBe(true);
    }
    expect(kept).toEqual([]);
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
      kept.push(...(await nothingKept(batch, member)).map((p) => `${member}: ${p}`));
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
