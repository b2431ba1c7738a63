/**
 * The local stand-in for the Functions host's HTTP front end, answering as Azure's does: serves the
 * captured HTTP registrations under the route prefix, answers what the host decides itself with an
 * empty body (401 without a key it holds, 404 for no route, 500 for a declared body over
 * FUNCTIONS_REQUEST_BODY_SIZE_LIMIT, 408 for a body too slow, 500 for a failed or timed-out
 * invocation; `/` is the host's homepage), hands the body to the function as a stream (as with HTTP streams on: a body with
 * Content-Length once it has arrived whole, as the host's binding reads it first, a chunked one as it
 * arrives), and turns what a handler returns into a response.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { HttpRequest, InvocationContext } from '@azure/functions';
import type { HttpRequestInit } from '@azure/functions';
import type { CapturedFunction, CapturedHttpFunction } from './functionsCoreStandIn.js';
import { describeFailure, invocationLogHandler } from './LocalHostLogger.js';
import type { LocalHostLogger } from './LocalHostLogger.js';
import { RequestBodyStream } from './RequestBodyStream.js';
import { RouteTable, decodePathSegments } from './RouteTable.js';
import { discardBody } from './discardBody.js';
import { defaultHostTimeouts, type HostTimeouts } from './HostTimeouts.js';
import { isBodyless, watchBodyRate } from './watchBodyRate.js';
import { writeHandlerResponse } from './writeHandlerResponse.js';

export interface LocalHttpServerOptions {
  /** Captured registrations; only the HTTP ones are served. */
  readonly functions: readonly CapturedFunction[];
  /** Route prefix from host.json (`extensions.http.routePrefix`); '' when routes carry their full path. */
  readonly routePrefix: string;
  /**
   * The host's own body limit (`FUNCTIONS_REQUEST_BODY_SIZE_LIMIT`): a declared Content-Length over it
   * fails the invocation before any function code runs, answered with an empty 500. Azure's host
   * answers so, not 413: its HTTP trigger binding reads the body before the invocation, Kestrel's
   * "request body too large" fails that binding, and the host's exception middleware turns it into a
   * 500 (azure-functions-host#10519). Smaller limits are the functions' business.
   */
  readonly hostBodyLimitBytes: number;
  /**
   * `AzureWebJobsDisableHomepage` as the host reads it ("true" in any case): with no function at
   * `/`, the host answers `/` itself, whatever the method: 204 when disabled, else its HTML page.
   */
  readonly homepageDisabled: boolean;
  readonly logger: LocalHostLogger;
  /**
   * Decides whether a non-empty key may call a function-level route. Default: any non-empty key
   * passes (the service resolves the partner from the key itself).
   */
  readonly isValidHostKey?: (key: string) => Promise<boolean>;
  /** Deadlines of the front end; defaults are the Azure front end's (see `defaultHostTimeouts`). */
  readonly timeouts?: Partial<HostTimeouts>;
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

/** The local page at `/` while the homepage is on; Azure's host shows a page of its own there. */
const homepageHtml =
  '<!doctype html><html><head><title>Functions host</title></head><body><p>The Functions host is running.</p></body></html>';

/**
 * What the host's homepage middleware answers at `/` when no function served it: 204 when
 * `AzureWebJobsDisableHomepage` is true, else an HTML page (any method).
 */
function answerHomepage(res: http.ServerResponse, disabled: boolean): void {
  if (disabled) {
    res.writeHead(204);
    res.end();
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html', 'content-length': String(Buffer.byteLength(homepageHtml)) });
  res.end(homepageHtml);
}

/** Retry-After of the 503 answered when the key check cannot reach storage. */
const keyCheckRetryAfterSeconds = 1;

/** How long close() waits for running requests before cutting their connections. */
const closeGraceMs = 5_000;

/** Starts the server and resolves once it is listening. */
export async function startLocalHttpServer(options: LocalHttpServerOptions): Promise<RunningLocalHttpServer> {
  const { logger } = options;
  const timeouts: HostTimeouts = { ...defaultHostTimeouts, ...options.timeouts };
  const isValidHostKey = options.isValidHostKey ?? (() => Promise.resolve(true));
  const prefix = options.routePrefix.replace(/^\/+|\/+$/g, '');
  const routeOf = (fn: CapturedHttpFunction): string => `/${[prefix, fn.route].filter((part) => part !== '').join('/')}`;

  const routes = new RouteTable<CapturedHttpFunction>();
  for (const fn of options.functions) {
    if (fn.kind === 'http') routes.add(routeOf(fn), fn);
  }

  const server = http.createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      // How often the two deadlines above are checked (Node's default is every 30 s).
      connectionsCheckingInterval: Math.min(1_000, timeouts.headersMs),
    },
    (req, res) => {
      void handleRequest(req, res);
    },
  );

  async function handleRequest(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const started = performance.now();
    const method = (req.method ?? 'GET').toUpperCase();
    const rawUrl = req.url ?? '/';
    const queryStart = rawUrl.indexOf('?');
    const rawPath = queryStart === -1 ? rawUrl : rawUrl.slice(0, queryStart);
    const search = queryStart === -1 ? '' : rawUrl.slice(queryStart);
    // Log lines name the route template when known, else the path; never the query (it may hold `code`).
    let routeForLog = truncate(rawPath, 200);
    const logLine = (status: number): void => {
      const line = `${method} ${routeForLog} ${status} ${Math.round(performance.now() - started)}ms`;
      if (status >= 500) logger.error(line);
      else logger.info(line);
    };

    /** What the Functions host answers by itself: a status and no body. */
    const answerFromHost = (status: number, closeConnection = false, retryAfterSeconds?: number): void => {
      if (!res.headersSent) {
        res.writeHead(status, {
          'content-length': '0',
          ...(closeConnection ? { connection: 'close' } : {}),
          ...(retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) }),
        });
        res.end();
      }
      logLine(status);
    };

    try {
      const segments = decodePathSegments(rawPath);
      // The host's routes carry their methods as a constraint: a known path with another method is
      // simply no match, so it gets the same 404 as an unknown path (never a 405).
      const chosen = (segments ? routes.match(segments) : []).find((candidate) => candidate.value.methods.includes(method as never));
      if (!chosen && rawPath === '/') {
        answerHomepage(res, options.homepageDisabled);
        logLine(res.statusCode);
        discardBody(req, res, timeouts);
        return;
      }
      if (!chosen) {
        answerFromHost(404, !isBodyless(req));
        discardBody(req, res, timeouts);
        return;
      }
      const fn = chosen.value;
      routeForLog = routeOf(fn);

      if (fn.authLevel !== 'anonymous') {
        const key = functionKey(req, search);
        let valid: boolean;
        try {
          valid = key !== undefined && (await isValidHostKey(key));
        } catch (error) {
          // Azure's host holds its keys in memory; this stand-in reads them from storage. A read
          // that fails is a host that cannot serve for a moment (503, to be retried), never the
          // final 500 of a failed function.
          logger.warn(`${method} ${routeForLog}: the key could not be checked: ${describeFailure(error)}`);
          answerFromHost(503, !isBodyless(req), keyCheckRetryAfterSeconds);
          discardBody(req, res, timeouts);
          return;
        }
        if (!valid) {
          answerFromHost(401, !isBodyless(req));
          discardBody(req, res, timeouts);
          return;
        }
      }

      const declared = Number(req.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.hostBodyLimitBytes) {
        logger.error(
          `${method} ${routeForLog}: the declared body is larger than FUNCTIONS_REQUEST_BODY_SIZE_LIMIT; the invocation failed.`,
        );
        answerFromHost(500, true);
        discardBody(req, res, timeouts);
        return;
      }

      const body = new RequestBodyStream(req);
      const stopWatchingBody = watchBodyRate(req, body, timeouts, () => {
        logger.warn(`${method} ${routeForLog}: the client sent its body too slowly; connection closed.`);
        answerFromHost(408, true);
        req.socket.destroy();
      });
      let handedOver = body.stream;
      if (Number.isFinite(declared) && declared > 0) {
        // Azure's HTTP trigger binding reads a body with a Content-Length whole (buffering it)
        // before the invocation starts; only a chunked body reaches the function as it arrives.
        // A body cut off meanwhile fails that binding: the function never runs.
        try {
          handedOver = await readWhole(body.stream);
        } catch (error) {
          stopWatchingBody();
          body.detach();
          // Too slow: already answered 408 and cut.
          if (res.headersSent) return;
          logger.error(`${method} ${routeForLog}: the request body could not be read (${describeFailure(error)}); the invocation failed.`);
          answerFromHost(500, true);
          return;
        }
      }
      const request = new HttpRequest({
        // What the library builds in Azure with HTTP streams on: a fetch Request over the proxied body.
        nativeRequest: new Request(`http://${hostForUrl(req, server)}${rawUrl}`, {
          method,
          headers: requestHeaders(req),
          ...(method === 'GET' || method === 'HEAD' ? {} : { body: handedOver, duplex: 'half' }),
        }),
        params: chosen.params,
      } as unknown as HttpRequestInit);
      const invocationId = randomUUID();
      const context = new InvocationContext({
        invocationId,
        functionName: fn.name,
        logHandler: invocationLogHandler(logger, fn.name),
        options: { trigger: { ...fn.triggerBinding, name: fn.triggerBindingName } },
      });

      let result: unknown;
      try {
        result = await withDeadline(Promise.resolve(fn.handler(request, context)), Math.min(timeouts.functionMs, timeouts.requestMs));
      } catch (error) {
        stopWatchingBody();
        body.detach();
        logger.error(`Function ${fn.name} (invocation ${invocationId}) failed: ${describeFailure(error)}`);
        answerFromHost(500, !body.ended);
        discardBody(req, res, timeouts);
        return;
      }
      stopWatchingBody();
      body.detach();
      // A body the function did not read to its end is drained (so the client reads the answer)
      // and the connection is not reused.
      await writeHandlerResponse(res, result, !body.ended);
      discardBody(req, res, timeouts);
    } catch (error) {
      logger.error(`Local host failed on ${method} ${routeForLog}: ${describeFailure(error)}`);
      if (!res.headersSent) answerFromHost(500, true);
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

/** The invocation's result, or a rejection once `ms` have passed (the host's function timeout). */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`The function ran longer than the host's functionTimeout (${ms} ms).`));
    }, ms);
    timer.unref();
  });
  return Promise.race([work, deadline]).finally(() => {
    clearTimeout(timer);
  });
}

/** The same body as a stream again, once every byte of it has arrived. */
async function readWhole(stream: ReadableStream<Uint8Array>): Promise<ReadableStream<Uint8Array>> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) chunks.push(read.value);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

/**
 * The key the host checks, chosen as Azure's host chooses it (AuthenticationLevelHandler): the first
 * `x-functions-key` header whenever one is sent, even empty, and only without one the first `code`
 * query parameter. An empty choice is no key. (Node joins repeated headers; `headersDistinct` keeps
 * them apart, and its parser has already trimmed each value as Kestrel's does.)
 */
function functionKey(req: http.IncomingMessage, search: string): string | undefined {
  const headers = req.headersDistinct['x-functions-key'];
  const chosen = headers ? headers[0] : new URLSearchParams(search).get('code');
  if (chosen === null || chosen === undefined || chosen === '') return undefined;
  return chosen;
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

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length)}…`;
}
