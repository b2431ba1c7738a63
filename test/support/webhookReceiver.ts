import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';

/** One request as a receiver saw it: lower-case headers and the exact body bytes. */
interface ReceivedWebhook {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** What the receiver does with its n-th request (1-based): answer with a status, or never answer. */
export type ReceiverBehaviour = (
  n: number,
  request: ReceivedWebhook,
) => number | 'hang' | { status: number; headers?: Record<string, string>; body?: string };

export interface WebhookReceiver {
  readonly port: number;
  /** `http://127.0.0.1:<port>/hooks` (or https with the host name given at start). */
  readonly url: string;
  readonly received: ReceivedWebhook[];
  /** Connections opened so far, answered or not. */
  connections: number;
  /** Connections open now: a hanging request's stays open until its sender gives up. */
  open: number;
  close(): Promise<void>;
}

/**
 * A webhook receiver on loopback, for tests: records every request and answers as told. With
 * `tls`, it serves https with the given certificate, and `url` uses `hostName` (resolved by the
 * test's injected resolver to 127.0.0.1).
 */
export async function startWebhookReceiver(
  behaviour: ReceiverBehaviour,
  options: { tls?: { key: string; cert: string }; hostName?: string } = {},
): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
      const request: ReceivedWebhook = { method: req.method ?? '', path: req.url ?? '', headers, body: Buffer.concat(chunks) };
      received.push(request);
      const answer = behaviour(received.length, request);
      if (answer === 'hang') return;
      const {
        status,
        headers: extra,
        body,
      } = typeof answer === 'number' ? { status: answer, headers: undefined, body: undefined } : answer;
      res.writeHead(status, extra);
      res.end(body);
    });
  };
  const server: Server = options.tls ? createHttpsServer(options.tls, handle) : createHttpServer(handle);
  const receiver = {
    port: 0,
    url: '',
    received,
    connections: 0,
    open: 0,
    /**
     * Stops listening and drops every connection, a hanging one included, and any the server
     * accepts meanwhile: a sender's attempt then fails at once, whatever stage it was at.
     */
    close: async (): Promise<void> => {
      closing = true;
      const closed = new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
  let closing = false;
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    receiver.connections += 1;
    receiver.open += 1;
    sockets.add(socket);
    socket.on('close', () => {
      receiver.open -= 1;
      sockets.delete(socket);
    });
    if (closing) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.port = (server.address() as AddressInfo).port;
  receiver.url = `${options.tls ? 'https' : 'http'}://${options.hostName ?? '127.0.0.1'}:${receiver.port}/hooks`;
  return receiver;
}
