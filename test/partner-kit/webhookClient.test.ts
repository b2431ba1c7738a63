import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PosClient } from '../../packages/partner-kit/src/PosClient.js';
import { PosRequestError } from '../../packages/partner-kit/src/PosRequestError.js';
import { WebhookSecret } from '../../src/events/WebhookSecret.js';
import { startTestService, type TestService } from '../support/startTestService.js';

let service: TestService;
beforeAll(async () => {
  // The endpoint is registered, not called: a loopback address is allowed for the test.
  service = await startTestService({ settings: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' } });
});
afterAll(async () => {
  await service.stop();
});

const endpoint = { url: 'http://127.0.0.1:9/pos-events', event_types: ['reconciliation.completed'] as const };

/** A client of a new partner, with the fetch it sends through, counting the requests. */
async function client(answer?: (call: number) => Response | undefined) {
  const partner = await service.createPartner({ stores: [] });
  const sent: string[] = [];
  const counting: typeof fetch = (input, init) => {
    sent.push(
      `${init?.method ?? 'GET'} ${new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url).pathname}`,
    );
    return Promise.resolve(answer?.(sent.length)).then((given) => given ?? fetch(input, init));
  };
  return { pos: new PosClient({ baseUrl: service.baseUrl, apiKey: partner.key, fetch: counting, baseDelayMs: 1, maxDelayMs: 5 }), sent };
}

describe('PosClient webhook registration', () => {
  it('registers, shows, rotates and removes the endpoint; the secret comes with the first answer and the rotation only', async () => {
    const { pos } = await client();
    expect(await pos.webhook()).toBeUndefined();

    const first = await pos.registerWebhook({ url: endpoint.url, event_types: [...endpoint.event_types] });
    expect(first).toMatchObject({ url: endpoint.url, event_types: ['reconciliation.completed'] });
    const secret = 'secret' in first ? first.secret : undefined;
    expect(WebhookSecret.parse(secret ?? '')).toBeInstanceOf(WebhookSecret);

    const again = await pos.registerWebhook({ url: endpoint.url, event_types: ['reconciliation.completed', 'batch.failed'] });
    expect(again).not.toHaveProperty('secret');
    expect(await pos.webhook()).toMatchObject({
      event_types: ['reconciliation.completed', 'batch.failed'],
      previous_secret_expires_at: null,
    });

    const rotated = await pos.rotateWebhookSecret();
    expect(WebhookSecret.parse(rotated.secret)).toBeInstanceOf(WebhookSecret);
    expect(rotated.secret).not.toBe(secret);
    expect((await pos.webhook())?.previous_secret_expires_at).toEqual(expect.any(String));

    await pos.removeWebhook();
    expect(await pos.webhook()).toBeUndefined();
    // Removing again, as a retry after a lost answer would, is done too.
    await pos.removeWebhook();
  });

  it('sends a registration and a rotation once, never again after a failed answer, and reads retry', async () => {
    const busy = () =>
      new Response(JSON.stringify({ error: { code: 'SERVICE_UNAVAILABLE', message: 'busy', request_id: 'x' } }), { status: 503 });
    const { pos, sent } = await client((call) => (call <= 3 ? busy() : undefined));
    await expect(pos.registerWebhook({ url: endpoint.url, event_types: [...endpoint.event_types] })).rejects.toBeInstanceOf(
      PosRequestError,
    );
    await expect(pos.rotateWebhookSecret()).rejects.toMatchObject({ status: 503 });
    expect(sent).toEqual(['PUT /pos/v1/webhook', 'POST /pos/v1/webhook/rotate-secret']);
    // A read is retried past the busy answer.
    expect(await pos.webhook()).toBeUndefined();
    expect(sent.slice(2)).toEqual(['GET /pos/v1/webhook', 'GET /pos/v1/webhook']);
  });

  it('tells a missing endpoint from a wrong baseUrl', async () => {
    const partner = await service.createPartner({ stores: [] });
    const wrong = new PosClient({ baseUrl: service.baseUrl.replace(/\/pos\/v1$/, ''), apiKey: partner.key, baseDelayMs: 1, maxDelayMs: 5 });
    await expect(wrong.webhook()).rejects.toMatchObject({ status: 404 });
  });
});
