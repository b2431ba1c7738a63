/**
 * The admin actions over real HTTP: each does what the HQ tool's command does, is idempotent, and
 * refuses bad bodies with the partner API's order of checks.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PaymentDirectionRepository } from '../../../src/storage/PaymentDirectionRepository.js';
import { buildUsdStore } from '../../fixtures/masterDataFixtures.js';
import { anyString } from '../../support/matchers.js';
import { errorCodeOf, errorPaths } from '../../support/responseBodies.js';
import { startTestService, type TestOperator, type TestPartner, type TestService } from '../../support/startTestService.js';
import { listOf, objectOf } from '../support/hqBodies.js';

let service: TestService;
let admin: TestOperator;
let partner: TestPartner;

beforeAll(async () => {
  service = await startTestService();
  admin = await service.createOperator('admin');
  partner = await service.createPartner({ stores: ['S-1'] });
});
afterAll(async () => {
  await service.stop();
});

const act = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
  service.callHost(admin, method, `hq/v1/partners/${partner.partnerId}/${path}`, body, headers);

describe('POST /hq/v1/partners/{id}/stores', () => {
  it('registers stores, tells which were new, and lets the partner use them', async () => {
    const first = objectOf(await act('POST', 'stores', { store_ids: ['S-1', 'S-2', 'S-2'] }));
    expect(first).toEqual({ partner_id: partner.partnerId, registered: ['S-2'], already_registered: ['S-1'] });
    const again = objectOf(await act('POST', 'stores', { store_ids: ['S-2'] }));
    expect(again).toEqual({ partner_id: partner.partnerId, registered: [], already_registered: ['S-2'] });
    const listed = listOf<{ store_id: string }>(await service.callHost(admin, 'GET', `hq/v1/partners/${partner.partnerId}/stores`));
    expect(listed.items.map((s) => s.store_id)).toEqual(['S-1', 'S-2']);
    // The partner may now query the new store (403 STORE_NOT_ALLOWED before).
    expect((await service.call(partner, 'GET', 'daily-close/S-2/2026-03-01')).status).toBe(200);
  });

  it('refuses bad bodies: media type, size, JSON, schema', async () => {
    const wrongType = await act('POST', 'stores', JSON.stringify({ store_ids: ['S-3'] }), { 'content-type': 'text/plain' });
    expect([wrongType.status, errorCodeOf(wrongType)]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const tooLarge = await act('POST', 'stores', { store_ids: ['x'.repeat(17_000)] });
    expect([tooLarge.status, errorCodeOf(tooLarge)]).toEqual([413, 'PAYLOAD_TOO_LARGE']);
    const notJson = await act('POST', 'stores', '{"store_ids": [');
    expect([notJson.status, errorCodeOf(notJson)]).toEqual([400, 'INVALID_PAYLOAD']);
    for (const [body, path] of [
      [{}, '/store_ids'],
      [{ store_ids: [] }, '/store_ids'],
      [{ store_ids: Array.from({ length: 101 }, (_, i) => `S-${i}`) }, '/store_ids'],
      [{ store_ids: ['bad\u0001id'] }, '/store_ids/0'],
      // Ids no partner request could name (the contract's identifier rule).
      [{ store_ids: ['S-3', 'S-4 '] }, '/store_ids/1'],
      [{ store_ids: [' S-4'] }, '/store_ids/0'],
      [{ store_ids: ['S\u200B4'] }, '/store_ids/0'],
      // A path segment of the store's routes: clients resolve these away before sending.
      [{ store_ids: ['S-3', '.'] }, '/store_ids/1'],
      [{ store_ids: ['..'] }, '/store_ids/0'],
      // The text %2F in a path segment is read as an escaped `/`: the store could not be named.
      [{ store_ids: ['S-3', 'A%2FB'] }, '/store_ids/1'],
      [{ store_ids: ['a%2fb'] }, '/store_ids/0'],
      [{ store_ids: ['S-3'], extra: true }, '/extra'],
    ] as const) {
      const response = await act('POST', 'stores', body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(errorCodeOf(response)).toBe('INVALID_PAYLOAD');
      expect(errorPaths(response)).toContain(path);
    }
    const unknown = await service.callHost(admin, 'POST', `hq/v1/partners/nobody-${randomUUID()}/stores`, { store_ids: ['S-1'] });
    expect([unknown.status, errorCodeOf(unknown)]).toEqual([404, 'PARTNER_NOT_FOUND']);
  });
});

describe('POST /hq/v1/partners/{id}/stores/{store_id}/retire and /reactivate', () => {
  const storeRoute = (partnerId: string, storeId: string, action: 'retire' | 'reactivate') =>
    `hq/v1/partners/${encodeURIComponent(partnerId)}/stores/${encodeURIComponent(storeId)}/${action}`;
  const storesOf = async (partnerId: string) =>
    listOf<{ store_id: string; registration_status: string; retired_at: string | null }>(
      await service.callHost(admin, 'GET', `hq/v1/partners/${partnerId}/stores`),
    ).items;

  it('retires and reactivates a store, each idempotently, and the store list shows it', async () => {
    // A `/` in a store id travels as %2F.
    const owner = await service.createPartner({ stores: ['R/1', 'R-2'] });
    const retired = objectOf(await service.callHost(admin, 'POST', storeRoute(owner.partnerId, 'R/1', 'retire')));
    expect(retired).toEqual({
      store_id: 'R/1',
      registered_at: anyString(),
      store_name: null,
      currency: null,
      time_zone: null,
      workday_start: null,
      status: null,
      registration_status: 'RETIRED',
      retired_at: anyString(),
    });
    // Again, with `{}`: the same end state, the first retirement's time.
    expect(objectOf(await service.callHost(admin, 'POST', storeRoute(owner.partnerId, 'R/1', 'retire'), {}))).toEqual(retired);
    expect(await storesOf(owner.partnerId)).toEqual([
      expect.objectContaining({ store_id: 'R-2', registration_status: 'ACTIVE', retired_at: null }),
      expect.objectContaining({
        store_id: 'R/1',
        registration_status: 'RETIRED',
        retired_at: (retired as { retired_at: string }).retired_at,
      }),
    ]);

    const active = { ...(retired as object), registration_status: 'ACTIVE', retired_at: null };
    expect(objectOf(await service.callHost(admin, 'POST', storeRoute(owner.partnerId, 'R/1', 'reactivate')))).toEqual(active);
    expect(objectOf(await service.callHost(admin, 'POST', storeRoute(owner.partnerId, 'R/1', 'reactivate')))).toEqual(active);
    expect((await storesOf(owner.partnerId)).map((s) => s.registration_status)).toEqual(['ACTIVE', 'ACTIVE']);
  });

  it("answers 404 STORE_NOT_FOUND for a store not registered for the partner, whoever else has it, and leaves the other's alone", async () => {
    const a = await service.createPartner({ stores: ['ONLY-A', 'BOTH'] });
    const b = await service.createPartner({ stores: ['BOTH'] });
    for (const action of ['retire', 'reactivate'] as const) {
      for (const storeId of ['ONLY-A', 'NOWHERE']) {
        const response = await service.callHost(admin, 'POST', storeRoute(b.partnerId, storeId, action));
        expect([response.status, errorCodeOf(response)], `${action} ${storeId}`).toEqual([404, 'STORE_NOT_FOUND']);
        // The answer says nothing of who else has the store.
        expect(JSON.stringify(response.body)).not.toContain(a.partnerId);
      }
    }
    const unknown = await service.callHost(admin, 'POST', storeRoute(`nobody-${randomUUID()}`, 'ONLY-A', 'retire'));
    expect([unknown.status, errorCodeOf(unknown)]).toEqual([404, 'PARTNER_NOT_FOUND']);
    // B's routes created nothing for B, and A's stores are as they were.
    expect((await storesOf(b.partnerId)).map((s) => s.store_id)).toEqual(['BOTH']);
    expect((await storesOf(a.partnerId)).map((s) => s.registration_status)).toEqual(['ACTIVE', 'ACTIVE']);

    // One store id registered for both: retired for B only.
    expect((await service.callHost(admin, 'POST', storeRoute(b.partnerId, 'BOTH', 'retire'))).status).toBe(200);
    expect((await storesOf(a.partnerId)).map((s) => [s.store_id, s.registration_status])).toEqual([
      ['BOTH', 'ACTIVE'],
      ['ONLY-A', 'ACTIVE'],
    ]);
    const upload = () => ({ batch_id: randomUUID(), stores: [buildUsdStore('BOTH')] });
    expect((await service.call(a, 'PUT', 'stores', upload())).status).toBe(202);
    expect(errorCodeOf(await service.call(b, 'PUT', 'stores', upload()))).toBe('STORE_NOT_ALLOWED');
  });

  it('takes no body but an empty object, and leaves the store as it was', async () => {
    const owner = await service.createPartner({ stores: ['S-1'] });
    const response = await service.callHost(admin, 'POST', storeRoute(owner.partnerId, 'S-1', 'retire'), { status: 'RETIRED' });
    expect([response.status, errorCodeOf(response)]).toEqual([400, 'INVALID_PAYLOAD']);
    expect((await storesOf(owner.partnerId)).map((s) => s.registration_status)).toEqual(['ACTIVE']);
  });
});

describe('PUT /hq/v1/partners/{id}/payment-directions', () => {
  it('sets a direction the reconciliation reads, and lists it', async () => {
    const set = objectOf(await act('PUT', 'payment-directions', { payment_type: 'GIFT_CARD', direction: -1 }));
    expect(set).toEqual({ partner_id: partner.partnerId, payment_type: 'GIFT_CARD', direction: -1 });
    const stored = await new PaymentDirectionRepository(service.services.storage.tables.paymentDirections).listForPartner(
      partner.partnerId,
    );
    expect(stored.get('GIFT_CARD')).toBe(-1);
    expect(objectOf(await act('PUT', 'payment-directions', { payment_type: 'GIFT_CARD', direction: 0 }))).toMatchObject({ direction: 0 });
    expect(listOf(await act('GET', 'payment-directions')).items).toEqual([{ payment_type: 'GIFT_CARD', direction: 0 }]);
  });

  it('refuses a built-in payment type, whose direction is fixed, and never lists one stored before', async () => {
    for (const paymentType of ['SALE', 'REFUND', 'DEPOSIT', 'DEPOSIT_APPLIED', 'ADJUSTMENT']) {
      const response = await act('PUT', 'payment-directions', { payment_type: paymentType, direction: -1 });
      expect([response.status, errorCodeOf(response)]).toEqual([400, 'INVALID_PAYLOAD']);
      expect(errorPaths(response)).toEqual(['/payment_type']);
    }
    // One stored before built-in codes were refused: the reconciliation never read it.
    const repository = new PaymentDirectionRepository(service.services.storage.tables.paymentDirections);
    await repository.set(partner.partnerId, 'SALE', -1, new Date());
    expect(listOf(await act('GET', 'payment-directions')).items).not.toContainEqual(expect.objectContaining({ payment_type: 'SALE' }));
  });

  it('refuses a payment type no partner payment can carry: control characters, C1 included', async () => {
    const refused = ['GIFT\u0001', 'GIFT\u007F', 'GIFT\u0085', '\u009F', '', 'X'.repeat(51)];
    for (const paymentType of refused) {
      const response = await act('PUT', 'payment-directions', { payment_type: paymentType, direction: 1 });
      expect([response.status, errorCodeOf(response)], JSON.stringify(paymentType)).toEqual([400, 'INVALID_PAYLOAD']);
      expect(errorPaths(response)).toEqual(['/payment_type']);
    }
    const listed = listOf<{ payment_type: string }>(await act('GET', 'payment-directions')).items.map((d) => d.payment_type);
    expect(listed.filter((type) => refused.includes(type))).toEqual([]);
  });

  it('refuses a direction other than 1, -1 or 0', async () => {
    for (const direction of [2, '1', 0.5, null]) {
      const response = await act('PUT', 'payment-directions', { payment_type: 'GIFT_CARD', direction });
      expect(response.status).toBe(400);
      expect(errorPaths(response)).toContain('/direction');
    }
  });
});

describe('POST /hq/v1/partners/{id}/deactivate and /activate', () => {
  it("switches the partner's access to the partner API", async () => {
    const deactivated = objectOf(await act('POST', 'deactivate'));
    expect(deactivated).toMatchObject({ partner_id: partner.partnerId, status: 'INACTIVE' });
    const refused = await service.call(partner, 'GET', 'reference/transaction-types');
    expect([refused.status, errorCodeOf(refused)]).toEqual([403, 'PARTNER_INACTIVE']);
    expect(objectOf(await act('POST', 'deactivate', {}))).toMatchObject({ status: 'INACTIVE' });
    expect(objectOf(await act('POST', 'activate'))).toMatchObject({ status: 'ACTIVE' });
    expect((await service.call(partner, 'GET', 'reference/transaction-types')).status).toBe(200);
  });

  it('takes no body but an empty object', async () => {
    const response = await act('POST', 'deactivate', { status: 'INACTIVE' });
    expect([response.status, errorCodeOf(response)]).toEqual([400, 'INVALID_PAYLOAD']);
  });
});

describe('POST /hq/v1/partners/{id}/keys/{key_id}/revoke', () => {
  it('revokes the key at once, and again without change', async () => {
    const other = await service.createPartner({ stores: [] });
    const path = `hq/v1/partners/${other.partnerId}/keys/${other.keyId}/revoke`;
    const revoked = objectOf(await service.callHost(admin, 'POST', path));
    expect(revoked).toEqual({ key_id: other.keyId, status: 'REVOKED', created_at: anyString(), expires_at: null, revoked_at: anyString() });
    const refused = await service.call(other, 'GET', 'reference/transaction-types');
    expect(refused.status).toBe(401);
    expect(objectOf(await service.callHost(admin, 'POST', path))).toEqual(revoked);
  });

  it('tells every one of several revocations side by side the one time stored', async () => {
    const other = await service.createPartner({ stores: [] });
    const path = `hq/v1/partners/${other.partnerId}/keys/${other.keyId}/revoke`;
    const answers = await Promise.all(Array.from({ length: 10 }, () => service.callHost(admin, 'POST', path)));
    expect(answers.map((a) => a.status)).toEqual(Array.from({ length: 10 }, () => 200));
    const times = new Set(answers.map((a) => (objectOf(a) as { revoked_at: string }).revoked_at));
    expect(times.size).toBe(1);
    const listed = objectOf(await service.callHost(admin, 'GET', `hq/v1/partners/${other.partnerId}/keys`)) as {
      items: { key_id: string; revoked_at: string }[];
    };
    expect(listed.items.find((k) => k.key_id === other.keyId)?.revoked_at).toBe([...times][0]);
  });

  it('answers 404 KEY_NOT_FOUND for a key the partner does not have', async () => {
    const response = await act('POST', 'keys/key-00000000/revoke');
    expect([response.status, errorCodeOf(response)]).toEqual([404, 'KEY_NOT_FOUND']);
  });
});
