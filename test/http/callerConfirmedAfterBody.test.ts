import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerWithStores, tradeBatch, usdStore } from '../support/httpScenario.js';
import { startTestService, type TestOperator, type TestService } from '../support/startTestService.js';

// A body may take minutes to arrive (HTTP streams are on, and Azure's front end allows 230 s). What
// HQ revokes or deactivates meanwhile must stop the request before it writes anything, as it stops
// a new request: the caller's key is checked again once the body is in.
let service: TestService;
let admin: TestOperator;
beforeAll(async () => {
  service = await startTestService({ settings: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
  admin = await service.createOperator('admin');
});
afterAll(async () => {
  await service.stop();
});

/**
 * Sends a JSON body in two chunks: its first bytes at once, the rest once `finish` is called, so
 * the request has been authenticated and its handler is reading when HQ acts.
 */
function heldRequest(url: string, method: string, key: string, body: unknown): { answer: Promise<Response>; finish: () => void } {
  const bytes = Buffer.from(JSON.stringify(body));
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let first = true;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (first) {
        first = false;
        controller.enqueue(bytes.subarray(0, 5));
        return;
      }
      await finished;
      controller.enqueue(bytes.subarray(5));
      controller.close();
    },
  });
  const answer = fetch(url, {
    method,
    headers: { 'x-functions-key': key, 'content-type': 'application/json' },
    body: stream,
    duplex: 'half',
  } as RequestInit);
  return { answer, finish };
}

/** Long enough for the request to have passed its first key check and started reading. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 300));

async function codeOf(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

describe('a partner request whose body arrives after HQ acted', () => {
  it('is carried out when nothing changed meanwhile', async () => {
    const partner = await partnerWithStores(service);
    const held = heldRequest(`${service.baseUrl}/trade-records`, 'POST', partner.key, tradeBatch({ storeId: usdStore }));
    await settle();
    held.finish();
    expect((await held.answer).status).toBe(202);
  });

  it('writes nothing once the key was revoked: 401', async () => {
    const partner = await partnerWithStores(service);
    const batch = tradeBatch({ storeId: usdStore });
    const held = heldRequest(`${service.baseUrl}/trade-records`, 'POST', partner.key, batch);
    await settle();
    expect((await service.hq('key', 'revoke', partner.partnerId, partner.keyId)).code).toBe(0);
    held.finish();
    const answer = await held.answer;
    expect(answer.status).toBe(401);
    expect(await codeOf(answer)).toBe('UNAUTHORIZED');
    const committed = await service.hq('batch', 'list', '--state', 'committed', '--partner', partner.partnerId);
    expect(committed.code).toBe(0);
    // The partner's store upload is listed; the push is not.
    expect(committed.out.join('\n')).toMatch(/[0-9a-f]{8}-/);
    expect(committed.out.join('\n')).not.toContain(batch.batch_id);
  });

  it('writes nothing once the partner was deactivated: 403 PARTNER_INACTIVE', async () => {
    const partner = await partnerWithStores(service);
    const batch = tradeBatch({ storeId: usdStore });
    const held = heldRequest(`${service.baseUrl}/trade-records`, 'POST', partner.key, batch);
    await settle();
    expect((await service.hq('partner', 'deactivate', partner.partnerId)).code).toBe(0);
    held.finish();
    const answer = await held.answer;
    expect(answer.status).toBe(403);
    expect(await codeOf(answer)).toBe('PARTNER_INACTIVE');
    expect((await service.hq('partner', 'activate', partner.partnerId)).code).toBe(0);
    // The batch was never taken: sent again now, it is a first receipt.
    const again = await service.call(partner, 'POST', 'trade-records', batch);
    expect(again.status).toBe(202);
  });

  it('registers no webhook (nor tells its secret) once the key was revoked', async () => {
    const partner = await partnerWithStores(service);
    const registration = { url: 'http://127.0.0.1:9/hooks', event_types: ['reconciliation.completed'] };
    const held = heldRequest(`${service.baseUrl}/webhook`, 'PUT', partner.key, registration);
    await settle();
    expect((await service.hq('key', 'revoke', partner.partnerId, partner.keyId)).code).toBe(0);
    held.finish();
    const answer = await held.answer;
    expect(answer.status).toBe(401);
    expect(await answer.text()).not.toContain('secret');
    const shown = await service.hq('webhook', 'show', partner.partnerId);
    expect(shown.out.join('\n')).not.toContain('127.0.0.1');
  });
});

describe('an HQ admin action whose body arrives after its operator key was revoked', () => {
  it('changes nothing: 401', async () => {
    const operator = await service.createOperator('admin');
    const partner = await partnerWithStores(service);
    const url = `${service.origin}/hq/v1/partners/${partner.partnerId}/payment-directions`;
    const held = heldRequest(url, 'PUT', operator.key, { payment_type: 'GIFT', direction: -1 });
    await settle();
    expect((await service.hq('operator', 'revoke', operator.name, operator.keyId)).code).toBe(0);
    held.finish();
    const answer = await held.answer;
    expect(answer.status).toBe(401);
    const directions = await service.callHost(admin, 'GET', `hq/v1/partners/${partner.partnerId}/payment-directions`);
    expect(directions.status).toBe(200);
    expect(JSON.stringify(directions.body)).not.toContain('GIFT');
  });
});
