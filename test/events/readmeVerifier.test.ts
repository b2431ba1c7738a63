import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { signWebhook } from '../../src/events/signWebhook.js';
import { WebhookSecret } from '../../src/events/WebhookSecret.js';

/*
 * The verifier the README gives partners, run as written against what the service signs: a
 * partner who copies it accepts real deliveries and refuses tampered or replayed ones.
 */

const readme = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');
const block = /<!-- webhook-verifier -->\s*```js\n([\s\S]*?)```/.exec(readme)?.[1];
const dir = mkdtempSync(path.join(tmpdir(), 'readme-verifier-'));
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Verify = (secret: string, headers: Record<string, string>, rawBody: Buffer, now?: number) => boolean;

async function loadVerifier(): Promise<Verify> {
  if (block === undefined) throw new Error('README has no webhook verifier block');
  const file = path.join(dir, 'verify.mjs');
  writeFileSync(file, block);
  const module = (await import(pathToFileURL(file).href)) as { verifyDelivery: Verify };
  return module.verifyDelivery;
}

describe("the README's signature verifier", () => {
  it('accepts what the service signs, with either secret during a rotation, and refuses tampering and replays', async () => {
    const verify = await loadVerifier();
    const current = WebhookSecret.generate();
    const previous = WebhookSecret.generate();
    const body = Buffer.from('{"specversion":"1.0","id":"evt_1","data":{"status":"MATCHED"}}');
    const now = Date.parse('2026-03-01T12:00:00Z');
    const headers = { ...signWebhook([current, previous], { id: 'evt_1', timestamp: now / 1000, body }) };

    expect(verify(current.reveal(), headers, body, now)).toBe(true);
    expect(verify(previous.reveal(), headers, body, now)).toBe(true);
    expect(verify(WebhookSecret.generate().reveal(), headers, body, now)).toBe(false);
    expect(verify(current.reveal(), headers, Buffer.from(body.toString().replace('MATCHED', 'MISMATCHED')), now)).toBe(false);
    expect(verify(current.reveal(), { ...headers, 'webhook-id': 'evt_2' }, body, now)).toBe(false);
    expect(verify(current.reveal(), headers, body, now + 301_000)).toBe(false);
    expect(verify(current.reveal(), { ...headers, 'webhook-signature': '' }, body, now)).toBe(false);
  });
});
