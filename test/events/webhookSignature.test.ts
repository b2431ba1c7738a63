import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { WebhookSecret } from '../../src/events/WebhookSecret.js';
import { signatureOf, signWebhook, type WebhookHeaders } from '../../src/events/signWebhook.js';
import { verifyWebhook } from '../../src/events/verifyWebhook.js';

/**
 * The Standard Webhooks scheme written out again from the specification's text, independently of
 * the service's code: the secret is `whsec_` + base64 of the key; the signed content is
 * `{msg_id}.{timestamp}.{payload}`; the signature is `v1,` + base64(HMAC-SHA256(key, content)).
 */
function referenceSignature(secretText: string, id: string, timestamp: number, payload: Buffer): string {
  const key = Buffer.from(secretText.replace(/^whsec_/, ''), 'base64');
  const content = Buffer.concat([Buffer.from(`${id}.${timestamp}.`, 'utf8'), payload]);
  return `v1,${createHmac('sha256', key).update(content).digest('base64')}`;
}

const secretOf = (text: string): WebhookSecret => {
  const secret = WebhookSecret.parse(text);
  if (!secret) throw new Error('test secret does not parse');
  return secret;
};

describe('signing', () => {
  it("matches the specification's published example", () => {
    // The example of the specification's reference libraries: a 24-byte key.
    const secret = secretOf('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw');
    const signature = signatureOf(secret, { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: 1614265330, body: '{"test": 2432232314}' });
    expect(signature).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('agrees with the independent routine on random secrets and bodies, non-ASCII and binary included', () => {
    for (let i = 0; i < 50; i++) {
      const secret = WebhookSecret.generate();
      const body = i % 2 === 0 ? Buffer.from(`{"store":"Zürich-${i}","amount":"1.5","note":"東京 ✓"}`, 'utf8') : randomBytes(200 + i);
      const id = `evt_${randomBytes(8).toString('hex')}`;
      const timestamp = 1_700_000_000 + i * 97;
      expect(signatureOf(secret, { id, timestamp, body })).toBe(referenceSignature(secret.reveal(), id, timestamp, body));
    }
  });

  it('signs with the key bytes, not the text of the secret', () => {
    const secret = WebhookSecret.generate();
    const wrong = `v1,${createHmac('sha256', secret.reveal()).update('evt_1.1.{}').digest('base64')}`;
    expect(signatureOf(secret, { id: 'evt_1', timestamp: 1, body: '{}' })).not.toBe(wrong);
  });

  it('puts one signature per secret in the header, space-separated, the current secret first', () => {
    const current = WebhookSecret.generate();
    const previous = WebhookSecret.generate();
    const content = { id: 'evt_abc', timestamp: 1_750_000_000, body: '{"a":1}' };
    const headers = signWebhook([current, previous], content);
    expect(headers['webhook-id']).toBe('evt_abc');
    expect(headers['webhook-timestamp']).toBe('1750000000');
    expect(headers['webhook-signature'].split(' ')).toEqual([
      referenceSignature(current.reveal(), content.id, content.timestamp, Buffer.from(content.body)),
      referenceSignature(previous.reveal(), content.id, content.timestamp, Buffer.from(content.body)),
    ]);
  });

  it('refuses an id holding "." (it would make the signed content ambiguous) and a non-integer timestamp', () => {
    const secret = WebhookSecret.generate();
    expect(() => signatureOf(secret, { id: 'evt.1', timestamp: 1, body: '' })).toThrow();
    expect(() => signatureOf(secret, { id: 'evt_1', timestamp: 1.5, body: '' })).toThrow();
    expect(() => signWebhook([], { id: 'evt_1', timestamp: 1, body: '' })).toThrow();
  });
});

describe('secrets', () => {
  it('are whsec_ and the base64 of 32 random bytes, different every time', () => {
    const a = WebhookSecret.generate().reveal();
    const b = WebhookSecret.generate().reveal();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('read back from their text', () => {
    const secret = WebhookSecret.generate();
    const again = WebhookSecret.parse(secret.reveal());
    expect(again?.equals(secret)).toBe(true);
  });

  it.each([
    ['no prefix', 'MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
    ['too short a key', `whsec_${Buffer.alloc(16, 1).toString('base64')}`],
    ['too long a key', `whsec_${Buffer.alloc(65, 1).toString('base64')}`],
    ['not base64', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaS!'],
    ['base64url', `whsec_${Buffer.alloc(32, 0xfb).toString('base64url')}`],
    // 43 characters and "=" carry 32 bytes and 2 spare bits; "B" sets a spare bit, so two texts would name one key.
    ['non-canonical padding bits', `whsec_${'A'.repeat(42)}B=`],
  ])('refuse %s', (_label, text) => {
    expect(WebhookSecret.parse(text)).toBeUndefined();
  });

  it('never show their value in logs, JSON or inspection', () => {
    const secret = WebhookSecret.generate();
    const value = secret.reveal();
    const key = secret.key.toString('base64');
    for (const shown of [
      String(secret),
      `${secret.toString()} in a line`,
      JSON.stringify({ secret }),
      inspect({ secret }),
      inspect(secret),
    ]) {
      expect(shown).not.toContain(value);
      expect(shown).not.toContain(key);
    }
  });
});

describe('verification', () => {
  const secret = WebhookSecret.generate();
  const now = new Date('2026-03-01T12:00:00Z');
  const timestamp = Math.floor(now.getTime() / 1000);
  const body = '{"specversion":"1.0","id":"evt_1"}';
  const headers = (): WebhookHeaders => signWebhook([secret], { id: 'evt_1', timestamp, body });

  it('accepts what the service signed', () => {
    expect(verifyWebhook({ headers: headers(), body, secrets: [secret], now })).toEqual({ ok: true, id: 'evt_1', timestamp });
  });

  it('accepts a signature made by the independent routine', () => {
    const h = { ...headers(), 'webhook-signature': referenceSignature(secret.reveal(), 'evt_1', timestamp, Buffer.from(body)) };
    expect(verifyWebhook({ headers: h, body: Buffer.from(body), secrets: [secret], now }).ok).toBe(true);
  });

  it('accepts any matching signature among several, skipping other versions and junk', () => {
    const other = WebhookSecret.generate();
    const valid = headers()['webhook-signature'];
    const h = {
      ...headers(),
      'webhook-signature': `v1a,${Buffer.alloc(64).toString('base64')} v1,AAAA v2,${valid.slice(3)} nonsense ${valid}`,
    };
    expect(verifyWebhook({ headers: h, body, secrets: [other, secret], now }).ok).toBe(true);
  });

  it('accepts a rotation: signed with old and new, verified with either', () => {
    const next = WebhookSecret.generate();
    const h = { ...signWebhook([next, secret], { id: 'evt_1', timestamp, body }) };
    expect(verifyWebhook({ headers: h, body, secrets: [secret], now }).ok).toBe(true);
    expect(verifyWebhook({ headers: h, body, secrets: [next], now }).ok).toBe(true);
  });

  it.each([
    ['a changed body', { body: body.replace('evt_1', 'evt_2') }],
    ['another secret', { secrets: [WebhookSecret.generate()] }],
    ['a changed id', { headers: { ...signWebhook([secret], { id: 'evt_1', timestamp, body }), 'webhook-id': 'evt_2' } }],
    [
      'a changed timestamp',
      { headers: { ...signWebhook([secret], { id: 'evt_1', timestamp, body }), 'webhook-timestamp': String(timestamp - 1) } },
    ],
    [
      'the same signature as v1a',
      { headers: { ...headers(), 'webhook-signature': headers()['webhook-signature'].replace('v1,', 'v1a,') } },
    ],
    ['a truncated signature', { headers: { ...headers(), 'webhook-signature': headers()['webhook-signature'].slice(0, 20) } }],
  ])('refuses %s', (_label, change) => {
    expect(verifyWebhook({ headers: headers(), body, secrets: [secret], now, ...change })).toEqual({
      ok: false,
      reason: 'NO_MATCHING_SIGNATURE',
    });
  });

  it("takes Node's request.headers as they are, and a webhook header sent twice as missing", () => {
    const request: IncomingHttpHeaders = { ...headers(), 'content-type': 'application/json', 'set-cookie': ['a=1', 'b=2'] };
    expect(verifyWebhook({ headers: request, body, secrets: [secret], now }).ok).toBe(true);
    const twice: IncomingHttpHeaders = { ...request, 'webhook-id': ['evt_1', 'evt_1'] };
    expect(verifyWebhook({ headers: twice, body, secrets: [secret], now })).toEqual({ ok: false, reason: 'MISSING_HEADER' });
  });

  it('refuses a timestamp outside the tolerance either way (replays)', () => {
    expect(verifyWebhook({ headers: headers(), body, secrets: [secret], now: new Date(now.getTime() + 301_000) })).toEqual({
      ok: false,
      reason: 'TIMESTAMP_OUT_OF_TOLERANCE',
    });
    expect(verifyWebhook({ headers: headers(), body, secrets: [secret], now: new Date(now.getTime() - 301_000) }).ok).toBe(false);
    expect(verifyWebhook({ headers: headers(), body, secrets: [secret], now: new Date(now.getTime() + 299_000) }).ok).toBe(true);
  });

  it('checks the timestamp against the time of the call when no `now` is given', () => {
    const current = Math.floor(Date.now() / 1000);
    const fresh = signWebhook([secret], { id: 'evt_1', timestamp: current, body });
    expect(verifyWebhook({ headers: fresh, body, secrets: [secret] })).toEqual({ ok: true, id: 'evt_1', timestamp: current });
    // The fixed `now` of the other cases is long past: their event is a replay today.
    expect(verifyWebhook({ headers: headers(), body, secrets: [secret] })).toEqual({ ok: false, reason: 'TIMESTAMP_OUT_OF_TOLERANCE' });
  });

  it('throws when the secrets are none, or not read with WebhookSecret.parse (a wrong secret text reads as undefined)', () => {
    const wrongText = WebhookSecret.parse('whsec_not-base64!');
    expect(wrongText).toBeUndefined();
    for (const secrets of [[], [wrongText], ['whsec_' + 'A'.repeat(44)], undefined]) {
      expect(() => verifyWebhook({ headers: headers(), body, secrets: secrets as unknown as WebhookSecret[], now })).toThrow(
        /verifyWebhook needs secrets: one or more values read with WebhookSecret.parse/,
      );
    }
  });

  it('refuses missing headers and a timestamp that is not whole seconds', () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const h = Object.fromEntries(Object.entries(headers()).filter(([key]) => key !== name));
      expect(verifyWebhook({ headers: h, body, secrets: [secret], now })).toEqual({ ok: false, reason: 'MISSING_HEADER' });
    }
    expect(verifyWebhook({ headers: { ...headers(), 'webhook-timestamp': '1.5e9' }, body, secrets: [secret], now })).toEqual({
      ok: false,
      reason: 'BAD_TIMESTAMP',
    });
  });
});
