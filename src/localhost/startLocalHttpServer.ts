/**
 * The local stand-in for the Functions host's HTTP front end: serves the captured HTTP
 * registrations under the route prefix, checks function keys, caps request bodies, and turns what
 * a handler returns into an HTTP response.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { HttpRequest, HttpResponse, InvocationContext } from '@azure/functions';
import type { Cookie, HttpResponseInit } from '@azure/functions';
import { errorCatalogue } from '../errors/errorCatalogue.js';
import type { CapturedFunction, CapturedHttpFunction } from './functionsCoreStandIn.js';
import { describeFailure, invocationLogHandler } from './LocalHostLogger.js';
import type { LocalHostLogger } from './LocalHostLogger.js';
import { RouteTable, decodePathSegments } from './RouteTable.js';

export interface LocalHttpServerOptions {
  /** Captured registrations; only the HTTP ones are served. */
  readonly functions: readonly CapturedFunction[];
  /** Route prefix from host.json (`extensions.http.routePrefix`), e.g. `pos/v1`. */
  readonly routePrefix: string;
  /** Largest request body accepted; a larger one is answered 413 without reading it all. */
  readonly maxBodyBytes: number;
  readonly logger: LocalHostLogger;
  /**
   * Decides whether a non-empty key may call a function-level route. Default: any non-empty key
   * passes (the service resolves the partner from the key itself).
   */
  readonly isValidHostKey?: (key: string) => Promise<boolean>;
  /** Default 0: any free port. */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
}

export interface RunningLocalHttpServer {
  /** The port actually bound. */
  readonly port: number;
  /** e.g. `http://127.0.0.1:7071` (no route prefix). */
  readonly baseUrl: string;
  /** Stops accepting connections, lets running requests finish, then closes every connection. */
  close(): Promise<void>;
}

type HostErrorCode = 'NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'UNAUTHORIZED' | 'PAYLOAD_TOO_LARGE' | 'INTERNAL_ERROR';

/** How long a rejected upload may keep sending (discarded) before its connection is cut. */
const drainGraceMs = 2_000;
/** How long close() waits for running requests before cutting their connections. */
const closeGraceMs = 5_000;

/** Starts the server and resolves once it is listening. */
export async function startLocalHttpServer(options: LocalHttpServerOptions): Promise<RunningLocalHttpServer> {
  const { logger, maxBodyBytes } = options;
  const isValidHostKey = options.isValidHostKey ?? (() => Promise.resolve(true));
  const prefix = options.routePrefix.replace(/^\/+|\/+$/g, '');
  // With no prefix (every function carries its full route) a route is just `/<route>`.
  const base = prefix === '' ? '' : `/${prefix}`;

  const routes = new RouteTable<CapturedHttpFunction>();
  for (const fn of options.functions) {
    if (fn.kind === 'http') routes.add(`${base}/${fn.route}`, fn);
  }

  const server = http.createServer((req, res) => {
    void handleRequest(req, res);
  });

  async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    const queryStart = rawUrl.indexOf('?');
    const rawPath = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
    const search = queryStart === -1 ? '' : rawUrl.slice(queryStart);
    // Log lines name the route template when known, else the path; never the query (it may hold `code`).
    let routeForLog = truncate(rawPath, 200);

    const answerFromHost = (status: number, code: HostErrorCode, extraHeaders: Record<string, string> = {}): void => {
      sendJson(res, status, { error: { code, message: errorCatalogue[code].message } }, extraHeaders);
      const ms = Math.round(performance.now() - started);
      const line = `${method} ${routeForLog} ${status} ${ms}ms`;
      if (status >= 500) logger.error(line);
      else logger.info(line);
    };

    try {
      const segments = decodePathSegments(rawPath);
      const candidates = segments ? routes.match(segments) : [];
      const [mostSpecific] = candidates;
      if (mostSpecific === undefined) {
        answerFromHost(404, 'NOT_FOUND');
        req.resume();
        return;
      }
      const chosen = candidates.find((candidate) => candidate.value.methods.includes(method as never));
      if (!chosen) {
        const allowed = [...new Set(candidates.flatMap((candidate) => candidate.value.methods))];
        routeForLog = `${base}/${mostSpecific.value.route}`;
        answerFromHost(405, 'METHOD_NOT_ALLOWED', { allow: allowed.join(', ') });
        req.resume();
        return;
      }
      const fn = chosen.value;
      routeForLog = `${base}/${fn.route}`;

      if (fn.authLevel !== 'anonymous') {
        const key = functionKey(req, search);
        if (key === undefined || !(await isValidHostKey(key))) {
          answerFromHost(401, 'UNAUTHORIZED');
          req.resume();
          return;
        }
      }

      const body = await readBodyCapped(req, maxBodyBytes);
      if (body === 'too-large') {
        answerFromHost(413, 'PAYLOAD_TOO_LARGE', { connection: 'close' });
        drainThenClose(req, res);
        return;
      }

      const headers = requestHeaders(req);
      const request = new HttpRequest({
        method,
        url: `http://${hostForUrl(req, server)}${rawUrl}`,
        headers,
        params: chosen.params,
        body: { bytes: body },
      });
      const invocationId = randomUUID();
      const context = new InvocationContext({
        invocationId,
        functionName: fn.name,
        logHandler: invocationLogHandler(logger, fn.name),
        triggerMetadata: { query: Object.fromEntries(new URLSearchParams(search)), params: chosen.params },
        options: { trigger: { ...fn.triggerBinding, name: fn.triggerBindingName } },
      });

      let result: unknown;
      try {
        result = await fn.handler(request, context);
      } catch (error) {
        logger.error(`Function ${fn.name} (invocation ${invocationId}) threw: ${describeFailure(error)}`);
        answerFromHost(500, 'INTERNAL_ERROR');
        return;
      }
      await writeHandlerResponse(res, result);
    } catch (error) {
      logger.error(`Local host failed on ${method} ${routeForLog}: ${describeFailure(error)}`);
      if (!res.headersSent) answerFromHost(500, 'INTERNAL_ERROR');
      else res.destroy();
    }
  }

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
  const host = options.host ?? '127.0.0.1';

  let closing: Promise<void> | undefined;
  return {
    port,
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          server.closeAllConnections();
        }, closeGraceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      });
      return closing;
    },
  };
}

/** The key from `x-functions-key`, else from the `code` query parameter; undefined when neither is non-empty. */
function functionKey(req: http.IncomingMessage, search: string): string | undefined {
  const header = req.headers['x-functions-key'];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (fromHeader && fromHeader.trim() !== '') return fromHeader.trim();
  const code = new URLSearchParams(search).get('code');
  return code && code.trim() !== '' ? code.trim() : undefined;
}

/**
 * Reads the body into memory unless it is larger than `maxBytes`. A declared Content-Length over
 * the cap is refused before reading anything; a body that grows past the cap stops being read.
 */
function readBodyCapped(req: http.IncomingMessage, maxBytes: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve('too-large');

  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onAborted);
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > maxBytes) {
        cleanup();
        req.pause();
        chunks.length = 0;
        resolve('too-large');
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks, total));
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onAborted = (): void => {
      cleanup();
      reject(new Error('The client aborted the request.'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onAborted);
  });
}

/**
 * After a 413, discards whatever the client is still sending (without keeping it) so the client
 * can read the response, and cuts the connection if the upload goes on for too long.
 */
function drainThenClose(req: http.IncomingMessage, res: http.ServerResponse): void {
  const timer = setTimeout(() => req.socket.destroy(), drainGraceMs);
  timer.unref();
  const finish = (): void => {
    clearTimeout(timer);
  };
  req.once('end', finish);
  req.once('close', finish);
  res.once('close', finish);
  req.resume();
}

function requestHeaders(req: http.IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function hostForUrl(req: http.IncomingMessage, server: http.Server): string {
  const declared = req.headers.host;
  if (declared && /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/.test(declared)) return declared;
  const address = server.address() as AddressInfo;
  return `127.0.0.1:${address.port}`;
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, extraHeaders: Record<string, string> = {}): void {
  const bytes = Buffer.from(JSON.stringify(body), 'utf8');
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(bytes.length),
    ...extraHeaders,
  });
  res.end(bytes);
}

/** Writes what the handler returned: an HttpResponse, an HttpResponseInit, or nothing (204). */
async function writeHandlerResponse(res: http.ServerResponse, result: unknown): Promise<void> {
  if (result === undefined || result === null) {
    res.writeHead(204);
    res.end();
    return;
  }
  const response = result instanceof HttpResponse ? result : new HttpResponse(withJsonCharset(result));
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const setCookies = [...response.headers.getSetCookie(), ...response.cookies.map(serializeCookie)];
  if (setCookies.length > 0) headers['set-cookie'] = setCookies;
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length > 0 || !('content-length' in headers)) headers['content-length'] = String(body.length);
  res.writeHead(response.status, headers);
  res.end(body);
}

/** A jsonBody answer is labelled `application/json; charset=utf-8` unless the handler set a type. */
function withJsonCharset(init: HttpResponseInit): HttpResponseInit {
  if (init.jsonBody === undefined) return init;
  const headers = new Headers(init.headers);
  if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8');
  return { ...init, headers };
}

function serializeCookie(cookie: Cookie): string {
  const parts = [`${cookie.name}=${cookie.value}`];
  if (cookie.domain) parts.push(`Domain=${cookie.domain}`);
  if (cookie.path) parts.push(`Path=${cookie.path}`);
  if (cookie.expires !== undefined) parts.push(`Expires=${new Date(cookie.expires).toUTCString()}`);
  if (cookie.maxAge !== undefined) parts.push(`Max-Age=${cookie.maxAge}`);
  if (cookie.secure) parts.push('Secure');
  if (cookie.httpOnly) parts.push('HttpOnly');
  if (cookie.sameSite) parts.push(`SameSite=${cookie.sameSite}`);
  return parts.join('; ');
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}…`;
}
