import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { errorOf, errorPaths, webhookOf } from '../support/responseBodies.js';

/*
 * PUT/GET/DELETE /webhook and POST /webhook/rotate-secret through real HTTP, with the service's
 * own target rules (no private targets). Registration resolves nothing for an address written in
 * the URL, so a public address literal registers without any network.
 */

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

const publicUrl = 'https://203.0.114.10/hooks/pos';
const otherPublicUrl = 'https://198.51.101.7:8443/pos-events?token=abc';

const put = (partner: TestPartner, body: unknown) => service.call(partner, 'PUT', 'webhook', body);
const get = (partner: TestPartner) => service.call(partner, 'GET', 'webhook');
const secretKeyBytes = (secret: string): number => Buffer.from(secret.slice('whsec_'.length), 'base64').length;

describe('PUT /webhook', () => {
  it('answers the secret once on the first registration, never again on GET or a replace', async () => {
    const partner = await service.createPartner();
    const first = await put(partner, { url: publicUrl, event_types: ['reconciliation.completed'] });
    expect(first.status).toBe(201);
    expect(first.headers.get('cache-control')).toBe('no-store');
    const created = webhookOf(first);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(secretKeyBytes(created.secret ?? '')).toBe(32);
    expect(created).toMatchObject({ url: publicUrl, event_types: ['reconciliation.completed'], previous_secret_expires_at: null });

    const shown = await get(partner);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({ ...created, secret: undefined });
    expect(JSON.stringify(shown.body)).not.toContain(created.secret ?? '-');

    const replaced = await put(partner, { url: otherPublicUrl, event_types: ['batch.failed', 'reconciliation.changed'] });
    expect(replaced.status).toBe(200);
    expect(webhookOf(replaced)).not.toHaveProperty('secret');
    expect(webhookOf(await get(partner))).toMatchObject({ url: otherPublicUrl, event_types: ['batch.failed', 'reconciliation.changed'] });
  });

  it.each([
    ['an unknown field', { url: publicUrl, event_types: ['batch.failed'], secret: 'mine' }, '/secret'],
    ['a missing url', { event_types: ['batch.failed'] }, '/url'],
    ['a url over 2048 characters', { url: `https://203.0.114.10/${'a'.repeat(2048)}`, event_types: ['batch.failed'] }, '/url'],
    ['an unknown event type', { url: publicUrl, event_types: ['day.closed'] }, '/event_types/0'],
    ['an event type twice', { url: publicUrl, event_types: ['batch.failed', 'batch.failed'] }, '/event_types'],
    ['no event type', { url: publicUrl, event_types: [] }, '/event_types'],
  ])('refuses %s with INVALID_PAYLOAD and stores nothing', async (_name, body, path) => {
    const partner = await service.createPartner();
    const response = await put(partner, body);
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_PAYLOAD');
    expect(errorPaths(response)).toContain(path);
    expect(errorOf(await get(partner)).code).toBe('WEBHOOK_NOT_FOUND');
  });

  it.each([
    ['the cloud metadata address', 'http://169.254.169.254/'],
    ['a private address', 'https://10.0.0.1/'],
    ['loopback', 'https://127.0.0.1:8443/hooks'],
    ['plain http to a public address', 'http://203.0.114.10/hooks'],
    ['a URL with credentials', 'https://user:pw@203.0.114.10/hooks'],
  ])('refuses %s as a target, saying what is wrong at /url', async (_name, url) => {
    const partner = await service.createPartner();
    const response = await put(partner, { url, event_types: ['reconciliation.completed'] });
    expect(response.status).toBe(400);
    expect(errorOf(response).code).toBe('INVALID_PAYLOAD');
    expect(errorOf(response).details).toEqual([{ path: '/url', message: expect.any(String) as unknown }]);
    expect(JSON.stringify(response.body)).not.toContain('pw@');
    expect((await get(partner)).status).toBe(404);
  });

  it('answers 415 to a body that is not JSON', async () => {
    const partner = await service.createPartner();
    const response = await service.call(partner, 'PUT', 'webhook', 'url=x', { 'content-type': 'text/plain' });
    expect(response.status).toBe(415);
    expect(errorOf(response).code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });
});

describe('rotate-secret and DELETE /webhook', () => {
  it('rotation answers a new secret once and says until when the old one still signs', async () => {
    const partner = await service.createPartner();
    const first = webhookOf(await put(partner, { url: publicUrl, event_types: ['reconciliation.completed'] }));
    const before = Date.now();
    const rotated = await service.call(partner, 'POST', 'webhook/rotate-secret');
    expect(rotated.status).toBe(200);
    expect(rotated.headers.get('cache-control')).toBe('no-store');
    const body = webhookOf(rotated);
    expect(body.secret).toMatch(/^whsec_/);
    expect(body.secret).not.toBe(first.secret);
    const overlapEnds = Date.parse(body.previous_secret_expires_at ?? '');
    expect(overlapEnds - before).toBeGreaterThan(24 * 3600_000 - 60_000);
    expect(overlapEnds - before).toBeLessThan(24 * 3600_000 + 60_000);
    expect(webhookOf(await get(partner))).not.toHaveProperty('secret');
  });

  it('removes the endpoint: 204, then 404 WEBHOOK_NOT_FOUND for GET, DELETE and rotation', async () => {
    const partner = await service.createPartner();
    await put(partner, { url: publicUrl, event_types: ['batch.failed'] });
    const removed = await service.call(partner, 'DELETE', 'webhook');
    expect(removed.status).toBe(204);
    expect(removed.body).toBeUndefined();
    for (const [method, path] of [
      ['GET', 'webhook'],
      ['DELETE', 'webhook'],
      ['POST', 'webhook/rotate-secret'],
    ] as const) {
      const response = await service.call(partner, method, path);
      expect(response.status).toBe(404);
      expect(errorOf(response).code).toBe('WEBHOOK_NOT_FOUND');
    }
  });

  it('without a key every webhook route is refused', async () => {
    for (const method of ['GET', 'PUT', 'DELETE'] as const) expect((await service.call(null, method, 'webhook')).status).toBe(401);
    expect((await service.call(null, 'POST', 'webhook/rotate-secret')).status).toBe(401);
  });
});

describe('tenant isolation', () => {
  it("a partner never sees, rotates or removes another partner's webhook", async () => {
    const a = await service.createPartner();
    const b = await service.createPartner();
    const registeredA = webhookOf(await put(a, { url: publicUrl, event_types: ['reconciliation.completed'] }));

    expect(errorOf(await get(b)).code).toBe('WEBHOOK_NOT_FOUND');
    expect((await service.call(b, 'DELETE', 'webhook')).status).toBe(404);
    expect((await service.call(b, 'POST', 'webhook/rotate-secret')).status).toBe(404);

    // B's own registration is B's: a secret of its own, and A's stays as it was.
    const registeredB = await put(b, { url: otherPublicUrl, event_types: ['batch.failed'] });
    expect(registeredB.status).toBe(201);
    expect(webhookOf(registeredB).secret).not.toBe(registeredA.secret);
    expect(webhookOf(await get(a))).toEqual({ ...registeredA, secret: undefined });
    expect(webhookOf(await get(b)).url).toBe(otherPublicUrl);
  });
});
