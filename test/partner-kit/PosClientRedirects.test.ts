/**
 * The kit's client never follows a redirect: the API key travels in a header of its own, which
 * fetch would send on to whatever address a redirect names (another host, plain http).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { PosClient } from '../../packages/partner-kit/src/PosClient.js';
import { PosRequestError } from '../../packages/partner-kit/src/PosRequestError.js';

const servers: Server[] = [];
afterAll(async () => {
  await Promise.all(servers.map((server) => new Promise((closed) => server.close(closed))));
});

/** A local HTTP server answering with `handler`; resolves with its port. */
async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return (server.address() as AddressInfo).port;
}

it.each([301, 302, 303, 307, 308])('answers a %i as a refusal naming the cause, and sends nothing to where it points', async (status) => {
  const keysSeen: unknown[] = [];
  const elsewhere = await listen((request, response) => {
    keysSeen.push(request.headers['x-functions-key']);
    response.writeHead(200, { 'content-type': 'application/json' }).end('{"version":"x","data":[]}');
  });
  // Another origin: another host name and port.
  const redirecting = await listen((request, response) => {
    response.writeHead(status, { location: `http://localhost:${elsewhere}${request.url ?? ''}` }).end();
  });
  const client = new PosClient({ baseUrl: `http://127.0.0.1:${redirecting}/pos/v1`, apiKey: 'partner-key-under-test', baseDelayMs: 1 });

  const refused = await client.standardTransactionTypes().then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(PosRequestError);
  expect((refused as PosRequestError).status).toBe(status);
  expect((refused as PosRequestError).message).toContain('redirect, not followed');
  expect(keysSeen).toEqual([]);
});
