/**
 * A store HQ retired, seen by its partner over real HTTP: everything sent for it is refused as for
 * a store never registered, and nothing of it is written; its past stays readable; work accepted
 * before the retirement (a queued reconciliation, a push the sweep finishes) still completes; a
 * reactivation takes the same push again.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { PipelinePolicy, PipelineRequest, PipelineResponse, SendRequest } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushStep } from '../../src/services/push/BatchIngestion.js';
import { BatchLedger } from '../../src/storage/BatchLedger.js';
import { RawBatchStore } from '../../src/storage/RawBatchStore.js';
import { buildDailyClose, buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { fixtureBusinessDate } from '../fixtures/tradeRecordFixtures.js';
import { objectOf } from '../hq/support/hqBodies.js';
import { deferred, type Deferred } from '../support/deferred.js';
import { jpyStore, newBatchId, partnerWithStores, reconciled, tradeBatch, usdStore } from '../support/httpScenario.js';
import { ackOf, errorOf, reconciliationOf, type TestResponse } from '../support/responseBodies.js';
import { eventually, startTestService, type TestOperator, type TestPartner, type TestService } from '../support/startTestService.js';

/** Holds the storage requests it matches while a gate is set: a test's way to keep a run in flight. */
class HoldingPolicy implements PipelinePolicy {
  readonly name = 'store-retirement-hold';
  held = 0;
  private gate: { matches: (request: PipelineRequest) => boolean; open: Deferred } | undefined;

  hold(matches: (request: PipelineRequest) => boolean): void {
    this.gate = { matches, open: deferred() };
  }

  release(): void {
    this.gate?.open.resolve();
    this.gate = undefined;
  }

  async sendRequest(request: PipelineRequest, next: SendRequest): Promise<PipelineResponse> {
    const gate = this.gate;
    if (gate?.matches(request)) {
      this.held += 1;
      await gate.open.promise;
    }
    return next(request);
  }
}

const holding = new HoldingPolicy();
let crashAt: { step: PushStep; batchId: string } | undefined;
let service: TestService;
let admin: TestOperator;

beforeAll(async () => {
  service = await startTestService({
    services: {
      policy: holding,
      onPushStep: (step, batchId) => {
        if (crashAt?.step === step && crashAt.batchId === batchId) {
          crashAt = undefined;
          throw new Error(`push cut off at ${step}`);
        }
      },
    },
  });
  admin = await service.createOperator('admin');
});
afterAll(async () => {
  holding.release();
  await service.stop();
});

const storePath = (partner: TestPartner, storeId: string) =>
  `hq/v1/partners/${encodeURIComponent(partner.partnerId)}/stores/${encodeURIComponent(storeId)}`;
const retire = (partner: TestPartner, storeId: string) => service.callHost(admin, 'POST', `${storePath(partner, storeId)}/retire`);
const reactivate = (partner: TestPartner, storeId: string) => service.callHost(admin, 'POST', `${storePath(partner, storeId)}/reactivate`);

const ledger = () => new BatchLedger(service.services.storage.tables.batchLedger);
const rawBatches = () => new RawBatchStore(service.services.storage.rawBatches);

/** Whether anything of the batch was stored: its ledger entry or its body. */
async function storedAnything(partner: TestPartner, batchId: string): Promise<boolean> {
  const [entry, body] = await Promise.all([ledger().get(partner.partnerId, batchId), rawBatches().get(partner.partnerId, batchId)]);
  return entry !== undefined || body !== undefined;
}

/** The error a partner reads, without the request's own id. */
function refusalOf(response: TestResponse): unknown {
  expect(response.status, JSON.stringify(response.body)).toBe(403);
  const { request_id: _requestId, ...error } = errorOf(response) as { request_id?: string };
  return error;
}

describe('a retired store', () => {
  it('takes nothing the partner sends, as a store never registered, writes nothing, and takes it again once reactivated', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const before = tradeBatch();
    expect((await service.call(partner, 'POST', 'trade-records', before)).status).toBe(202);
    expect(objectOf(await retire(partner, usdStore))).toMatchObject({ store_id: usdStore, registration_status: 'RETIRED' });

    const storeSpecific = { ...buildProductBatch().products[0]!, product_id: 'P-STORE-ONLY', store_id: usdStore };
    const storesBody = { batch_id: newBatchId(), stores: [buildUsdStore(usdStore)] };
    const productsBody = { batch_id: newBatchId(), products: [storeSpecific] };
    const sends: [string, string, { batch_id: string }, string | undefined][] = [
      ['POST', 'trade-records', tradeBatch({ businessDate: '2026-03-02' }), undefined],
      ['POST', 'daily-close', { ...buildDailyClose('USD'), batch_id: newBatchId() }, undefined],
      ['PUT', 'stores', storesBody, '/stores/0/store_id'],
      ['PUT', 'products', productsBody, '/products/0/store_id'],
    ];
    const never = `NEVER-${randomUUID().slice(0, 6)}`;
    for (const [method, path, body, storePointer] of sends) {
      const refused = await service.call(partner, method, path, body);
      // The same answer, word for word, as for a store id HQ never registered for the partner.
      const asNever = JSON.parse(JSON.stringify(body).replaceAll(`"${usdStore}"`, `"${never}"`)) as { batch_id: string };
      const unregistered = await service.call(partner, method, path, { ...asNever, batch_id: newBatchId() });
      expect(refusalOf(refused), `${method} ${path}`).toEqual(refusalOf(unregistered));
      expect(errorOf(refused)).toMatchObject({ code: 'STORE_NOT_ALLOWED' });
      if (storePointer) expect(errorOf(refused).details).toEqual([{ path: storePointer, message: expect.any(String) as string }]);
      expect(await storedAnything(partner, body.batch_id), `${method} ${path}`).toBe(false);
    }
    // A body naming the retired store beside an active one is refused whole.
    const both = { batch_id: newBatchId(), stores: [buildUsdStore(jpyStore), buildUsdStore(usdStore)] };
    expect(errorOf(await service.call(partner, 'PUT', 'stores', both)).details?.map((d) => d.path)).toEqual(['/stores/1/store_id']);
    expect(await storedAnything(partner, both.batch_id)).toBe(false);

    // What names no store, or another store, is not touched by the retirement.
    const chainWide = buildProductBatch().products.filter((p) => p.store_id === undefined);
    expect(chainWide.length).toBeGreaterThan(0);
    expect((await service.call(partner, 'PUT', 'products', { batch_id: newBatchId(), products: chainWide })).status).toBe(202);
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch({ currency: 'JPY' }))).status).toBe(202);
    // A batch accepted before, sent again byte for byte, is answered as the repeat it is (nothing written).
    const repeat = await service.call(partner, 'POST', 'trade-records', before);
    expect([repeat.status, ackOf(repeat).status]).toEqual([200, 'ALREADY_RECEIVED']);

    expect(objectOf(await reactivate(partner, usdStore))).toMatchObject({ registration_status: 'ACTIVE', retired_at: null });
    const [refusedPush] = sends;
    const accepted = await service.call(partner, refusedPush![0], refusedPush![1], refusedPush![2]);
    expect([accepted.status, ackOf(accepted).status]).toEqual([202, 'ACCEPTED']);
  });

  it('keeps its past readable by the partner and reconciled again by HQ, while a store never registered stays refused', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    expect((await service.call(partner, 'POST', 'daily-close', { ...buildDailyClose('USD'), batch_id: newBatchId() })).status).toBe(202);
    expect((await reconciled(service, partner, usdStore, fixtureBusinessDate)).status).toBe('MATCHED');
    expect((await retire(partner, usdStore)).status).toBe(200);

    const past = await service.call(partner, 'GET', `daily-close/${usdStore}/${fixtureBusinessDate}`);
    expect(reconciliationOf(past)).toMatchObject({ store_id: usdStore, status: 'MATCHED' });
    // A day it never closed reads as such; nothing about it can be sent any more.
    expect(reconciliationOf(await service.call(partner, 'GET', `daily-close/${usdStore}/2026-03-09`)).status).toBe('NOT_RECEIVED');
    const never = await service.call(partner, 'GET', `daily-close/NEVER-${randomUUID().slice(0, 6)}/${fixtureBusinessDate}`);
    expect([never.status, errorOf(never).code]).toEqual([403, 'STORE_NOT_ALLOWED']);

    // HQ's rerun of its reconciled days still runs for it (after a remap, say).
    const checkedAt = reconciliationOf(past).checked_at;
    const rerun = await service.hq('reconciliation', 'rerun', partner.partnerId);
    expect([rerun.code, rerun.out[0]]).toEqual([0, '1 of 1 reconciled store-day(s) scheduled to reconcile again']);
    const again = await eventually(
      async () => reconciliationOf(await service.call(partner, 'GET', `daily-close/${usdStore}/${fixtureBusinessDate}`)),
      (result) => result.checked_at !== checkedAt,
    );
    expect(again.status).toBe('MATCHED');
    expect(again.checked_at).not.toBe(checkedAt);
  });

  it('keeps a transaction on its day: a newer version under another store is left out until HQ reactivates the store', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const counted = tradeBatch();
    expect((await service.call(partner, 'POST', 'trade-records', counted)).status).toBe(202);
    expect((await service.call(partner, 'POST', 'daily-close', { ...buildDailyClose('USD'), batch_id: newBatchId() })).status).toBe(202);
    const before = await reconciled(service, partner, usdStore, fixtureBusinessDate);
    expect(before.status).toBe('MATCHED');
    expect((await retire(partner, usdStore)).status).toBe(200);

    // Version 2 of one of the retired day's transactions, sent under the partner's other store.
    const moving = tradeBatch({ currency: 'JPY', recordCount: 1, tradeRecordIdOf: () => counted.trade_records[0]!.trade_record_id });
    moving.trade_records[0] = { ...moving.trade_records[0]!, version: counted.trade_records[0]!.version + 1 };
    const leftOut = await service.call(partner, 'POST', 'trade-records', moving);
    expect(leftOut.status).toBe(202);
    const warning = ackOf(leftOut).warnings.find((w) => w.code === 'STALE_VERSION');
    expect(warning).toMatchObject({ path: 'trade_records[0]', message: expect.stringContaining('retired') as string });
    expect(warning?.message).toContain(JSON.stringify(usdStore));

    // The retired day, reconciled again by HQ, still counts it.
    const rerun = await service.hq(
      'reconciliation',
      'rerun',
      partner.partnerId,
      '--from',
      fixtureBusinessDate,
      '--to',
      fixtureBusinessDate,
    );
    expect(rerun.code).toBe(0);
    const again = await eventually(
      async () => reconciliationOf(await service.call(partner, 'GET', `daily-close/${usdStore}/${fixtureBusinessDate}`)),
      (result) => result.checked_at !== before.checked_at,
    );
    expect(again).toMatchObject({ status: 'MATCHED', actual: before.actual });

    // Reactivated, the same version sent again moves the transaction.
    expect((await reactivate(partner, usdStore)).status).toBe(200);
    const moved = await service.call(partner, 'POST', 'trade-records', { ...moving, batch_id: newBatchId(), batch_seq: 2 });
    expect(moved.status).toBe(202);
    expect(ackOf(moved).warnings.filter((w) => w.code === 'STALE_VERSION')).toEqual([]);
  });

  it.each([
    // The queue is not read until the store is retired: the run starts after the retirement.
    ['queued', (request: PipelineRequest) => request.method === 'GET' && request.url.includes('/reconcile-requests/messages')],
    // The run's read of the day's transactions is held until the store is retired.
    [
      'running',
      (request: PipelineRequest, partnerId: string) =>
        request.method === 'GET' && request.url.includes('/traderecords(') && request.url.includes(partnerId),
    ],
  ] as const)('finishes the reconciliation of a close accepted before the retirement, %s then, with its report data', async (_, held) => {
    const partner = await partnerWithStores(service, { mapping: true });
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    const heldBefore = holding.held;
    holding.hold((request) => held(request, partner.partnerId));
    expect((await service.call(partner, 'POST', 'daily-close', { ...buildDailyClose('USD'), batch_id: newBatchId() })).status).toBe(202);
    expect(
      await eventually(
        () => Promise.resolve(holding.held),
        (count) => count > heldBefore,
      ),
    ).toBeGreaterThan(heldBefore);
    expect((await retire(partner, usdStore)).status).toBe(200);
    holding.release();

    expect((await reconciled(service, partner, usdStore, fixtureBusinessDate)).status).toBe('MATCHED');
    const detail = objectOf(
      await service.callHost(admin, 'GET', `hq/v1/store-days/${partner.partnerId}/${usdStore}/${fixtureBusinessDate}`),
    );
    expect(detail).toMatchObject({ status: 'MATCHED', overdue: false });
    // Its report files were written: HQ's sales totals read them.
    const sales = await eventually(
      async () =>
        objectOf(
          await service.callHost(
            admin,
            'GET',
            `hq/v1/sales?from=${fixtureBusinessDate}&to=${fixtureBusinessDate}&group_by=store&partner_id=${partner.partnerId}`,
          ),
        ) as { items: { store_id: string; net_sales: string }[] },
      (body) => body.items.length > 0,
    );
    expect(sales.items).toEqual([expect.objectContaining({ store_id: usdStore, net_sales: '38.91' })]);
  });

  it('answers a push cut off before the retirement, sent again after it, as a repeat, applied once', async () => {
    const partner = await partnerWithStores(service);
    const batch = tradeBatch();
    crashAt = { step: 'blob-stored', batchId: batch.batch_id };
    expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBeGreaterThanOrEqual(500);
    expect((await retire(partner, usdStore)).status).toBe(200);

    // The first attempt passed the checks and its body is stored, so HQ will count it: the partner
    // is told so, not that the store is refused.
    const again = await service.call(partner, 'POST', 'trade-records', batch);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(ackOf(again)).toMatchObject({ batch_id: batch.batch_id, status: 'ALREADY_RECEIVED', record_count: 3 });
    expect(ackOf(again).warnings.map((warning) => warning.code)).not.toContain('BATCH_ID_REUSED');
    expect((await ledger().get(partner.partnerId, batch.batch_id))?.state).toBe('COMMITTED');
    const day = objectOf(await service.callHost(admin, 'GET', `hq/v1/store-days/${partner.partnerId}/${usdStore}/${fixtureBusinessDate}`));
    expect(day).toMatchObject({ batches: [expect.objectContaining({ batch_id: batch.batch_id, record_count: 3, failed: false })] });

    // Another body under a new batch_id is still refused.
    expect(refusalOf(await service.call(partner, 'POST', 'trade-records', tradeBatch()))).toMatchObject({ code: 'STORE_NOT_ALLOWED' });
  });

  it('keeps refusing a retry whose first attempt never had its body stored', async () => {
    const partner = await partnerWithStores(service);
    const batch = tradeBatch();
    // A first attempt that wrote its entry and died before its body was stored: never accepted.
    const bodyHash = createHash('sha256').update(JSON.stringify(batch)).digest('hex');
    expect(await ledger().createPending(partner.partnerId, batch.batch_id, 'tradeRecords', bodyHash, new Date())).toBeDefined();
    expect((await retire(partner, usdStore)).status).toBe(200);

    expect(refusalOf(await service.call(partner, 'POST', 'trade-records', batch))).toMatchObject({ code: 'STORE_NOT_ALLOWED' });
    expect((await ledger().get(partner.partnerId, batch.batch_id))?.state).toBe('PENDING');
    expect(await rawBatches().get(partner.partnerId, batch.batch_id)).toBeUndefined();
  });

  it('lets the sweep finish a push cut off before the retirement', async () => {
    const partner = await partnerWithStores(service);
    const batch = tradeBatch();
    crashAt = { step: 'blob-stored', batchId: batch.batch_id };
    expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBeGreaterThanOrEqual(500);
    expect((await ledger().get(partner.partnerId, batch.batch_id))?.state).toBe('PENDING');
    expect((await retire(partner, usdStore)).status).toBe(200);

    expect(await service.services.sweeper.sweep({ partnerId: partner.partnerId, batchId: batch.batch_id })).toBe('completed');
    expect((await ledger().get(partner.partnerId, batch.batch_id))?.state).toBe('COMMITTED');
    const day = objectOf(await service.callHost(admin, 'GET', `hq/v1/store-days/${partner.partnerId}/${usdStore}/${fixtureBusinessDate}`));
    expect(day).toMatchObject({ batches: [expect.objectContaining({ batch_id: batch.batch_id, record_count: 3, failed: false })] });
  });
});
