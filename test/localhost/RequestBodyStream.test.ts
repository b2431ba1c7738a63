import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { RequestBodyStream } from '../../src/localhost/RequestBodyStream.js';

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((closed) => server?.close(closed));
});

/** A server that makes a request's body stream once `when` resolves, and resolves with the first read's outcome. */
async function readAfter(when: (req: http.IncomingMessage) => Promise<unknown>, send: (socket: net.Socket) => void): Promise<string> {
  const outcome = new Promise<string>((resolve) => {
    server = http.createServer((req, res) => {
      void when(req).then(async () => {
        const reader = new RequestBodyStream(req).stream.getReader();
        const read = await reader.read().then(
          (result) => (result.done ? 'done' : 'data'),
          (error: unknown) => `error: ${(error as Error).message}`,
        );
        resolve(read);
        res.destroy();
      });
    });
  });
  await new Promise<void>((listening) => server!.listen(0, '127.0.0.1', listening));
  const socket = net.connect((server!.address() as AddressInfo).port, '127.0.0.1', () => {
    send(socket);
  });
  socket.on('error', () => undefined);
  return outcome;
}

const chunkedHead = 'POST /x HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n';

it('fails its read at once when the client was gone before the stream was made', async () => {
  const read = readAfter(
    // Only 'close': with no 'error' listener Node reports the abort by closing, as the host sees it.
    (req) => new Promise((closed) => req.once('close', closed)),
    (socket) => {
      socket.write(chunkedHead);
      setTimeout(() => socket.destroy(), 50);
    },
  );
  expect(await read).toBe('error: The request body was cut off.');
});

it('hands over what arrived while the client is still there', async () => {
  const read = readAfter(
    () => new Promise((later) => setTimeout(later, 50)),
    (socket) => socket.write(chunkedHead),
  );
  expect(await read).toBe('data');
});
