import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { HostResolver } from '../../src/outbound/HostResolver.js';
import { WebhookSender } from '../../src/outbound/WebhookSender.js';
import { WebhookTargetGuard } from '../../src/outbound/WebhookTargetGuard.js';
import { makeTestCertificates } from '../support/testCertificates.js';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhookReceiver.js';

const body = Buffer.from('{"specversion":"1.0","id":"evt_1","data":{"amount":"12.50"}}');
const headers = { 'content-type': 'application/cloudevents+json; charset=utf-8', 'webhook-id': 'evt_1' };

/** Resolves names from a table and records each call: what was asked, and how often. */
function resolverOf(table: Record<string, readonly string[]>): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  return Object.assign(
    (hostname: string) => {
      calls.push(hostname);
      const found = table[hostname];
      return found ? Promise.resolve(found) : Promise.reject(new Error('ENOTFOUND'));
    },
    { calls },
  );
}

function senderWith(options: { allowPrivate?: boolean; resolve?: HostResolver; timeoutMs?: number; ca?: string } = {}): WebhookSender {
  const guard = new WebhookTargetGuard({ allowPrivate: options.allowPrivate ?? true, resolve: options.resolve ?? resolverOf({}) });
  return new WebhookSender({ guard, timeoutMs: options.timeoutMs ?? 2_000, ...(options.ca ? { ca: options.ca } : {}) });
}

const opened: { close(): Promise<void> }[] = [];
async function receiver(...args: Parameters<typeof startWebhookReceiver>): Promise<WebhookReceiver> {
  const r = await startWebhookReceiver(...args);
  opened.push(r);
  return r;
}
afterEach(async () => {
  await Promise.all(opened.splice(0).map((r) => r.close()));
});

describe('one delivery attempt', () => {
  it('POSTs the exact body with the given headers and succeeds on 2xx', async () => {
    const r = await receiver(() => 204);
    const outcome = await senderWith().attempt({ url: `${r.url}?q=1`, headers, body });
    expect(outcome).toEqual({ ok: true, status: 204 });
    expect(r.received).toHaveLength(1);
    expect(r.received[0]?.method).toBe('POST');
    expect(r.received[0]?.path).toBe('/hooks?q=1');
    expect(r.received[0]?.body.equals(body)).toBe(true);
    expect(r.received[0]?.headers).toMatchObject({ ...headers, 'content-length': String(body.length) });
  });

  it.each([
    [500, 'HTTP_ERROR'],
    [404, 'HTTP_ERROR'],
    [429, 'HTTP_ERROR'],
    [410, 'GONE'],
    [301, 'REDIRECT'],
    [307, 'REDIRECT'],
  ])('fails on %i (%s)', async (status, errorClass) => {
    const r = await receiver(() => status);
    expect(await senderWith().attempt({ url: r.url, headers, body })).toEqual({ ok: false, errorClass, status });
  });

  it('never follows a redirect: the Location target sees nothing', async () => {
    const elsewhere = await receiver(() => 200);
    const r = await receiver(() => ({ status: 302, headers: { location: elsewhere.url } }));
    expect(await senderWith().attempt({ url: r.url, headers, body })).toMatchObject({ ok: false, errorClass: 'REDIRECT' });
    expect(elsewhere.connections).toBe(0);
  });

  it("passes on the receiver's Retry-After, in seconds or as a date", async () => {
    const seconds = await receiver(() => ({ status: 503, headers: { 'retry-after': '120' } }));
    expect(await senderWith().attempt({ url: seconds.url, headers, body })).toEqual({
      ok: false,
      errorClass: 'HTTP_ERROR',
      status: 503,
      retryAfterSeconds: 120,
    });
    const date = await receiver(() => ({ status: 429, headers: { 'retry-after': new Date(Date.now() + 600_000).toUTCString() } }));
    const outcome = await senderWith().attempt({ url: date.url, headers, body });
    expect(outcome.ok ? 0 : outcome.retryAfterSeconds).toBeGreaterThan(590);
  });

  it('does not read a response body: an endless one does not keep the attempt', async () => {
    let streaming = true;
    const server: Server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = (): void => {
        while (streaming && res.write(chunk));
        if (streaming) res.once('drain', pump);
      };
      res.on('close', () => {
        streaming = false;
      });
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      // Reading the endless body would end in TIMEOUT: the answer comes from the status alone.
      expect(await senderWith({ timeoutMs: 5_000 }).attempt({ url: `http://127.0.0.1:${port}/`, headers, body })).toEqual({
        ok: true,
        status: 200,
      });
      await expect.poll(() => streaming).toBe(false);
    } finally {
      streaming = false;
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    }
  });

  it('gives up on a receiver that never answers when the attempt time is up, without holding up another', async () => {
    const hanging = await receiver(() => 'hang');
    const healthy = await receiver(() => 200);
    // Long enough for the healthy attempt to end first on a loaded machine.
    const sender = senderWith({ timeoutMs: 3_000 });
    const started = Date.now();
    const slow = sender.attempt({ url: hanging.url, headers, body }).then((outcome) => ({ outcome, ms: Date.now() - started }));
    await expect.poll(() => hanging.received.length).toBe(1);
    const fast = await sender.attempt({ url: healthy.url, headers, body });
    const fastMs = Date.now() - started;
    expect(fast).toEqual({ ok: true, status: 200 });
    const { outcome, ms } = await slow;
    expect(outcome).toEqual({ ok: false, errorClass: 'TIMEOUT' });
    expect(ms).toBeGreaterThanOrEqual(2_950);
    // A hang guard: the attempt ends at its time, not at some later one.
    expect(ms).toBeLessThan(8_000);
    expect(fastMs).toBeLessThan(ms);
  });

  it('counts a resolution that never ends against the same attempt time', async () => {
    const sender = new WebhookSender({
      guard: new WebhookTargetGuard({ allowPrivate: true, resolve: () => new Promise<never>(() => undefined) }),
      timeoutMs: 300,
    });
    expect(await sender.attempt({ url: 'https://slow-dns.partner.example/', headers, body })).toEqual({ ok: false, errorClass: 'TIMEOUT' });
  });

  it('fails with NETWORK when nothing listens', async () => {
    const r = await receiver(() => 200);
    await r.close();
    expect(await senderWith().attempt({ url: r.url, headers, body })).toEqual({ ok: false, errorClass: 'NETWORK' });
  });
});

describe('where the connection goes', () => {
  it('connects to the address the check resolved, resolving once per attempt', async () => {
    const r = await receiver(() => 200);
    // The name exists only in the injected resolver: reaching the receiver proves the connection used its answer.
    const resolve = resolverOf({ 'receiver.partner.test': ['127.0.0.1'] });
    const url = `http://receiver.partner.test:${r.port}/hooks`;
    expect(await senderWith({ resolve }).attempt({ url, headers, body })).toEqual({ ok: true, status: 200 });
    expect(resolve.calls).toEqual(['receiver.partner.test']);
    expect(r.received[0]?.headers.host).toBe(`receiver.partner.test:${r.port}`);
  });

  it('refuses, without connecting, a name that now resolves to a private address (DNS rebinding)', async () => {
    const r = await receiver(() => 200);
    let answer = ['93.184.216.34'];
    const guard = new WebhookTargetGuard({ allowPrivate: false, resolve: () => Promise.resolve(answer) });
    const url = `https://rebind.partner.test:${r.port}/hooks`;
    expect((await guard.check(url)).ok).toBe(true); // at registration
    answer = ['127.0.0.1']; // the partner's DNS changes its answer afterwards
    const outcome = await new WebhookSender({ guard, timeoutMs: 1_000 }).attempt({ url, headers, body });
    expect(outcome).toEqual({ ok: false, errorClass: 'TARGET_REFUSED' });
    expect(r.connections).toBe(0);
  });

  it('fails with DNS when the name does not resolve', async () => {
    expect(await senderWith().attempt({ url: 'https://gone.partner.test/', headers, body })).toEqual({ ok: false, errorClass: 'DNS' });
  });
});

describe('https', () => {
  const certificates = makeTestCertificates('receiver.partner.test');
  const resolve = resolverOf({ 'receiver.partner.test': ['127.0.0.1'], 'other.partner.test': ['127.0.0.1'] });

  it('verifies the certificate against the host name while connecting to the checked address', async () => {
    const r = await receiver(() => 202, { tls: certificates.server, hostName: 'receiver.partner.test' });
    expect(await senderWith({ resolve, ca: certificates.ca }).attempt({ url: r.url, headers, body })).toEqual({ ok: true, status: 202 });
    expect(r.received).toHaveLength(1);
  });

  it('fails with TLS for a certificate of another name or an untrusted issuer', async () => {
    const r = await receiver(() => 202, { tls: certificates.server, hostName: 'receiver.partner.test' });
    const otherName = `https://other.partner.test:${r.port}/hooks`;
    expect(await senderWith({ resolve, ca: certificates.ca }).attempt({ url: otherName, headers, body })).toEqual({
      ok: false,
      errorClass: 'TLS',
    });
    expect(await senderWith({ resolve }).attempt({ url: r.url, headers, body })).toEqual({ ok: false, errorClass: 'TLS' });
    expect(r.received).toHaveLength(0);
  });
});
