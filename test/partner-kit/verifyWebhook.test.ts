/**
 * The kit's verifyWebhook in a receiver built on a fetch-style framework (Hono, Next.js route
 * handlers, Deno, Bun, Cloudflare Workers): the delivery arrives as a Web-standard `Request`, its
 * headers a `Headers` object, not Node's plain `request.headers`. Signed by the service's own
 * signer, as the service signs a delivery.
 */
import { describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../packages/partner-kit/src/index.js';
import { signWebhook } from '../../src/events/signWebhook.js';
import { WebhookSecret } from '../../src/events/WebhookSecret.js';

const secret = WebhookSecret.generate();
const now = new Date('2026-03-01T12:00:00Z');
const timestamp = Math.floor(now.getTime() / 1000);
const body = '{"specversion":"1.0","id":"evt_1","data":{"store":"Zürich"}}';
const signed = (): Record<string, string> => ({ ...signWebhook([secret], { id: 'evt_1', timestamp, body }) });

/** The delivery as a fetch-style framework hands it to the receiver's handler. */
function delivery(headers: HeadersInit = signed(), sent: string = body): Request {
  return new Request('https://partner.example/pos-events', { method: 'POST', headers, body: sent });
}

describe('verifyWebhook given Web-standard Headers', () => {
  it('accepts a correctly signed delivery read from request.headers and the raw body', async () => {
    const request = delivery();
    // The bytes as the framework gives them, no Buffer needed.
    const raw = new Uint8Array(await request.arrayBuffer());
    expect(verifyWebhook({ headers: request.headers, body: raw, secrets: [secret], now })).toEqual({ ok: true, id: 'evt_1', timestamp });
  });

  it('reads the header names in any case, as Headers does', () => {
    const capitalised = Object.fromEntries(
      Object.entries(signed()).map(([name, value]) => [name.replace(/\b\w/g, (c) => c.toUpperCase()), value]),
    );
    expect(Object.keys(capitalised)).toEqual(['Webhook-Id', 'Webhook-Timestamp', 'Webhook-Signature']);
    expect(verifyWebhook({ headers: new Headers(capitalised), body, secrets: [secret], now }).ok).toBe(true);
  });

  it('refuses as it refuses a plain object: a missing header, a changed body, another secret, a replay', () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const headers = new Headers(signed());
      headers.delete(name);
      expect(verifyWebhook({ headers, body, secrets: [secret], now }), name).toEqual({ ok: false, reason: 'MISSING_HEADER' });
    }
    const headers = delivery().headers;
    expect(verifyWebhook({ headers, body: body.replace('evt_1', 'evt_2'), secrets: [secret], now })).toEqual({
      ok: false,
      reason: 'NO_MATCHING_SIGNATURE',
    });
    expect(verifyWebhook({ headers, body, secrets: [WebhookSecret.generate()], now })).toEqual({
      ok: false,
      reason: 'NO_MATCHING_SIGNATURE',
    });
    expect(verifyWebhook({ headers, body, secrets: [secret], now: new Date(now.getTime() + 301_000) })).toEqual({
      ok: false,
      reason: 'TIMESTAMP_OUT_OF_TOLERANCE',
    });
    expect(verifyWebhook({ headers: new Headers({ ...signed(), 'webhook-timestamp': '1.5e9' }), body, secrets: [secret], now })).toEqual({
      ok: false,
      reason: 'BAD_TIMESTAMP',
    });
  });

  it("still takes Node's plain request.headers, and a Map of the headers", () => {
    expect(verifyWebhook({ headers: { ...signed(), 'content-type': 'application/json' }, body, secrets: [secret], now }).ok).toBe(true);
    expect(verifyWebhook({ headers: new Map(Object.entries(signed())), body, secrets: [secret], now }).ok).toBe(true);
  });
});
