import { createHash } from 'node:crypto';
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { buildDayBatch, businessDateOf, checkDay, ledgerState, preparePartner } from './support/dayScenario.js';
import { SimulatedCrash, isBlobPut, isLedgerCreate, isPendingRowWrite } from './support/faultPolicy.js';
import { seededRandom } from './support/random.js';
import { ackOf } from '../support/responseBodies.js';
import { RawBatchStore } from '../../src/storage/RawBatchStore.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

let service: TestService;
let partner: TestPartner;
let blockBodyStore: { batchId: string; release: Promise<void>; reached: () => void } | undefined;
const random = seededRandom(6);

let failNextLedgerCreate = false;
let failNextPendingRow = false;

/** Holds back the first store of one batch's body until the test releases it; fails a ledger entry's creation. */
const storageGate: PipelinePolicy = {
  name: 'storage-gate',
  async sendRequest(request, next) {
    if (failNextLedgerCreate && isLedgerCreate(request)) {
      failNextLedgerCreate = false;
      throw new SimulatedCrash('ledger entry not created');
    }
    if (failNextPendingRow && isPendingRowWrite(request)) {
      failNextPendingRow = false;
      throw new SimulatedCrash('pending-index row not written');
    }
    const block = blockBodyStore;
    if (block && isBlobPut(request) && request.url.includes(block.batchId.toLowerCase())) {
      blockBodyStore = undefined;
      block.reached();
      await block.release;
    }
    return next(request);
  },
};

beforeAll(async () => {
  service = await startTestService({ services: { abandonedAfterMs: 0, policy: storageGate } });
  partner = await preparePartner(service, random);
});
afterAll(async () => {
  await service.stop();
});

function day(n: number): string {
  return businessDateOf(2600 + n);
}

describe('one batch_id, many sends', () => {
  it('a retry after a lost response gets 200 ALREADY_RECEIVED with the first record_count and warnings', async () => {
    // No product data was sent, so the batch carries UNKNOWN_PRODUCT warnings worth repeating.
    const batch = buildDayBatch(random, 'NYC-0001', day(1), 3, 'lost-response');
    const first = await service.call(partner, 'POST', 'trade-records', batch);
    expect(first.status).toBe(202);
    expect(ackOf(first).warnings.length).toBeGreaterThan(0);
    const again = await service.call(partner, 'POST', 'trade-records', batch);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...ackOf(first), status: 'ALREADY_RECEIVED' });
  });

  it('20 concurrent copies of one batch: exactly one 202, the rest 200 with the same receipt', async () => {
    const batch = buildDayBatch(random, 'NYC-0001', day(2), 4, 'twenty');
    const answers = await Promise.all(Array.from({ length: 20 }, () => service.call(partner, 'POST', 'trade-records', batch)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(1);
    expect(statuses.filter((s) => s === 200)).toHaveLength(answers.length - 1);
    const accepted = ackOf(answers.find((a) => a.status === 202)!);
    for (const a of answers) expect(a.body).toEqual({ ...accepted, status: a.status === 202 ? 'ACCEPTED' : 'ALREADY_RECEIVED' });
    const check = await checkDay(service, partner, random, 'NYC-0001', day(2), batch.trade_records);
    expect(check).toMatchObject({ missing: 0, unexpected: 0, reconciliation: 'MATCHED' });
  });

  it('the same batch_id with another body is not applied and is answered BATCH_ID_REUSED', async () => {
    const first = buildDayBatch(random, 'NYC-0001', day(3), 2, 'reuse-first');
    const other = { ...buildDayBatch(random, 'NYC-0001', day(3), 3, 'reuse-other'), batch_id: first.batch_id };
    expect((await service.call(partner, 'POST', 'trade-records', first)).status).toBe(202);
    const reused = await service.call(partner, 'POST', 'trade-records', other);
    expect(reused.status).toBe(200);
    expect(ackOf(reused).status).toBe('ALREADY_RECEIVED');
    expect(ackOf(reused).record_count).toBe(2);
    expect(ackOf(reused).warnings.map((w) => w.code)).toContain('BATCH_ID_REUSED');
    const check = await checkDay(service, partner, random, 'NYC-0001', day(3), first.trade_records);
    expect(check).toMatchObject({ missing: 0, unexpected: 0, reconciliation: 'MATCHED' });
  });

  it("another partner's batch_id is that partner's own new batch", async () => {
    const other = await preparePartner(service, random);
    const batch = buildDayBatch(random, 'NYC-0001', day(4), 2, 'cross-partner');
    expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBe(202);
    const theirs = await service.call(other, 'POST', 'trade-records', batch);
    expect(theirs.status).toBe(202);
    expect(ackOf(theirs).status).toBe('ACCEPTED');
    expect(ackOf(theirs).warnings.map((w: { code: string }) => w.code)).not.toContain('BATCH_ID_REUSED');
  });

  it('a writer stalled before storing its body never applies it once another body took the batch_id', async () => {
    const stalled = buildDayBatch(random, 'NYC-0001', day(5), 2, 'stalled');
    const winner = { ...buildDayBatch(random, 'NYC-0001', day(5), 3, 'winner'), batch_id: stalled.batch_id };
    let reached!: () => void;
    const reachedPromise = new Promise<void>((r) => (reached = r));
    let release!: () => void;
    blockBodyStore = { batchId: stalled.batch_id, release: new Promise<void>((r) => (release = r)), reached };
    const stalledAnswer = service.call(partner, 'POST', 'trade-records', stalled);
    await reachedPromise;
    // The stalled entry is older than `abandonedAfterMs` and has no body: the other send takes the id.
    const won = await service.call(partner, 'POST', 'trade-records', winner);
    expect(won.status).toBe(202);
    release();
    const late = await stalledAnswer;
    expect([200, 503]).toContain(late.status);
    if (late.status === 200) expect(ackOf(late).warnings.map((w: { code: string }) => w.code)).toContain('BATCH_ID_REUSED');
    expect(await ledgerState(service, partner.partnerId, stalled.batch_id)).toBe('COMMITTED');
    const check = await checkDay(service, partner, random, 'NYC-0001', day(5), winner.trade_records);
    expect(check).toMatchObject({ missing: 0, unexpected: 0, reconciliation: 'MATCHED' });
  });

  it('a body stored without its ledger entry is never applied; the next body sent under the batch_id takes its place', async () => {
    const orphan = buildDayBatch(random, 'NYC-0001', day(6), 2, 'orphan');
    const next = { ...buildDayBatch(random, 'NYC-0001', day(6), 3, 'after-orphan'), batch_id: orphan.batch_id };
    const raw = new RawBatchStore(service.services.storage.rawBatches);
    // The entry's creation fails; the body, written beside it, is stored all the same.
    failNextLedgerCreate = true;
    const failed = await service.call(partner, 'POST', 'trade-records', orphan);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    const orphanHash = await eventually(
      () => raw.storedHash(partner.partnerId, orphan.batch_id),
      (hash) => hash !== undefined,
    );
    expect(orphanHash).toBe(sha256(JSON.stringify(orphan)));
    expect(await ledgerState(service, partner.partnerId, orphan.batch_id)).toBe('absent');

    const taken = await service.call(partner, 'POST', 'trade-records', next);
    expect(taken.status).toBe(202);
    expect(ackOf(taken)).toMatchObject({ status: 'ACCEPTED', record_count: 3 });
    expect(await raw.storedHash(partner.partnerId, orphan.batch_id)).toBe(sha256(JSON.stringify(next)));
    // The first body, sent again, is the id reused: only the body that got an entry counts.
    const again = await service.call(partner, 'POST', 'trade-records', orphan);
    expect(again.status).toBe(200);
    expect(ackOf(again).warnings.map((w) => w.code)).toContain('BATCH_ID_REUSED');
    const check = await checkDay(service, partner, random, 'NYC-0001', day(6), next.trade_records);
    expect(check).toMatchObject({ missing: 0, unexpected: 0, reconciliation: 'MATCHED' });
  });

  it('an entry whose pending-index row could not be written is taken back: the sweep is never left a batch it cannot find', async () => {
    const batch = buildDayBatch(random, 'NYC-0001', day(7), 2, 'no-pending-row');
    failNextPendingRow = true;
    const failed = await service.call(partner, 'POST', 'trade-records', batch);
    expect(failed.status).toBeGreaterThanOrEqual(500);
    expect(failNextPendingRow).toBe(false);
    expect(await ledgerState(service, partner.partnerId, batch.batch_id)).toBe('absent');
    const again = await service.call(partner, 'POST', 'trade-records', batch);
    expect(again.status).toBe(202);
    expect(ackOf(again)).toMatchObject({ status: 'ACCEPTED', record_count: 2 });
    const check = await checkDay(service, partner, random, 'NYC-0001', day(7), batch.trade_records);
    expect(check).toMatchObject({ missing: 0, unexpected: 0, reconciliation: 'MATCHED' });
  });
});
