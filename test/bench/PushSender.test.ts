import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushBody, senderTemplate, startPushSender, type PushSenderSetup } from '../../bench/PushSender.js';

/** What the stand-in service saw of one request. */
interface Received {
  readonly method: string;
  readonly path: string;
  readonly key: string | undefined;
  readonly contentType: string | undefined;
  readonly body: Buffer;
}

const work = mkdtempSync(path.join(tmpdir(), 'push-sender-'));
const script = path.join(work, 'pushSenderChild.js');
const received: Received[] = [];
/** How the stand-in answers the next requests, in order: a status, or `drop` to close the socket unanswered. */
const answers: (number | 'drop')[] = [];
let server: http.Server;
let setup: PushSenderSetup;

beforeAll(async () => {
  // The child as `npm run bench` runs it: compiled JavaScript, forked on its own.
  await build({
    entryPoints: [path.join(__dirname, '../../bench/pushSenderChild.ts')],
    outfile: script,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'silent',
  });
  server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        method: request.method ?? '',
        path: request.url ?? '',
        key: request.headers['x-functions-key'] as string | undefined,
        contentType: request.headers['content-type'],
        body: Buffer.concat(chunks),
      });
      const answer = answers.shift() ?? 202;
      if (answer === 'drop') request.socket.destroy();
      else response.writeHead(answer).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  setup = { baseUrl: `http://127.0.0.1:${String(port)}/pos/v1`, key: 'partner-key', storeId: 'SND-1', records: 4, seed: 11 };
}, 60_000);

afterAll(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  rmSync(work, { recursive: true, force: true });
});

const notHere = () => Promise.reject(new Error('sent from the measured process'));

describe('startPushSender', () => {
  it('sends each push from its own process, with its own body, and resolves to the answered status', async () => {
    received.length = 0;
    answers.push(202, 503);
    const sender = await startPushSender(setup, notHere, script);
    try {
      expect(await sender.push(0)).toBe(202);
      expect(await sender.push(5)).toBe(503);
    } finally {
      await sender.stop();
    }
    const template = senderTemplate(setup);
    expect(received.map((r) => [r.method, r.path, r.key, r.contentType])).toEqual([
      ['POST', '/pos/v1/trade-records', 'partner-key', 'application/json'],
      ['POST', '/pos/v1/trade-records', 'partner-key', 'application/json'],
    ]);
    expect(received[0]?.body.equals(pushBody(template, 0))).toBe(true);
    expect(received[1]?.body.equals(pushBody(template, 5))).toBe(true);
    // Each push is a batch on a store-day of its own.
    const batches = received.map((r) => JSON.parse(r.body.toString('utf8')) as { batch_id: string; business_date: string });
    expect(new Set(batches.map((b) => b.batch_id)).size).toBe(2);
    expect(new Set(batches.map((b) => b.business_date)).size).toBe(2);
  }, 30_000);

  it('rejects only the push whose request failed, and sends the next one', async () => {
    received.length = 0;
    answers.push('drop', 202);
    const sender = await startPushSender(setup, notHere, script);
    try {
      await expect(sender.push(1)).rejects.toThrow(/^push sender: /);
      expect(await sender.push(2)).toBe(202);
    } finally {
      await sender.stop();
    }
    expect(received).toHaveLength(2);
  }, 30_000);

  it('sends from this process, with the same bodies, when there is no compiled child', async () => {
    const sent: Buffer[] = [];
    const sender = await startPushSender(
      setup,
      (body) => {
        sent.push(body);
        return Promise.resolve(201);
      },
      path.join(work, 'absent.js'),
    );
    expect(await sender.push(3)).toBe(201);
    await sender.stop();
    expect(sent).toHaveLength(1);
    expect(sent[0]?.equals(pushBody(senderTemplate(setup), 3))).toBe(true);
  });
});
