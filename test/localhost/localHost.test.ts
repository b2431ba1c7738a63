import { app } from '@azure/functions';
import type { InvocationContext, Timer } from '@azure/functions';
import net from 'node:net';
import { QueueServiceClient } from '@azure/storage-queue';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureRegistrations } from '../../src/localhost/functionsCoreStandIn.js';
import type { CapturedFunction } from '../../src/localhost/functionsCoreStandIn.js';
import type { LocalHostLogger } from '../../src/localhost/LocalHostLogger.js';
import { QueuePoller, type QueuePoll } from '../../src/localhost/QueuePoller.js';
import { startAzurite } from '../../src/localhost/startAzurite.js';
import type { RunningAzurite } from '../../src/localhost/startAzurite.js';
import { startLocalHttpServer } from '../../src/localhost/startLocalHttpServer.js';
import { TimerRunner } from '../../src/localhost/TimerRunner.js';
import type { RunningLocalHttpServer } from '../../src/localhost/startLocalHttpServer.js';
import { anyString } from '../support/matchers.js';
import { manualTime } from '../support/testClock.js';
import { StorageError } from '../../src/errors/StorageError.js';

const key = 'sample-key-7f3a';
const secretBodyText = 'body-text-that-must-not-be-logged';
const maxBodyBytes = 1024;
/** The host's own body limit in this test (FUNCTIONS_REQUEST_BODY_SIZE_LIMIT). */
const hostBodyLimitBytes = 1024 * 1024;

interface RecordedMessage {
  readonly value: unknown;
  readonly metadata: Record<string, unknown>;
  readonly at: number;
}

class RecordingLogger implements LocalHostLogger {
  readonly lines: { level: 'info' | 'warn' | 'error'; line: string }[] = [];
  info(line: string): void {
    this.lines.push({ level: 'info', line });
  }
  warn(line: string): void {
    this.lines.push({ level: 'warn', line });
  }
  error(line: string): void {
    this.lines.push({ level: 'error', line });
  }
  text(): string {
    return this.lines.map((entry) => `${entry.level} ${entry.line}`).join('\n');
  }
}

/** A small function table of the test's own, registered through the real `app.*` calls. */
function registerSampleTable(
  calls: { echo: number; failing: number; flaky: number },
  received: RecordedMessage[],
  flakyReceived: RecordedMessage[],
): void {
  app.http('ping', {
    route: 'ping',
    methods: ['GET'],
    authLevel: 'anonymous',
    handler: () => ({ status: 200, headers: { 'x-sample': 'yes' }, jsonBody: { pong: true } }),
  });
  app.http('getItem', {
    route: 'stores/{storeId}/items/{id}',
    methods: ['GET'],
    authLevel: 'function',
    handler: (request) => ({
      jsonBody: { route: 'item', params: request.params, q: request.query.get('q'), hasKeyHeader: request.headers.has('x-functions-key') },
    }),
  });
  app.http('getLatestItem', {
    route: 'stores/{storeId}/items/latest',
    methods: ['GET'],
    authLevel: 'function',
    handler: (request) => ({ jsonBody: { route: 'latest', storeId: request.params.storeId } }),
  });
  app.http('echoLength', {
    route: 'echo',
    methods: ['POST'],
    authLevel: 'function',
    handler: async (request, context) => {
      calls.echo += 1;
      // Reads the body as a stream and stops at the cap, as the service's pushes do.
      const reader = request.body!.getReader();
      let length = 0;
      for (;;) {
        const result = await reader.read();
        if (result.done) break;
        const chunk: unknown = result.value;
        if (!(chunk instanceof Uint8Array)) throw new Error('the body stream gave something other than bytes');
        length += chunk.byteLength;
        if (length > maxBodyBytes) {
          reader.releaseLock();
          return { status: 413, jsonBody: { tooLarge: true } };
        }
      }
      context.log(`echo received ${length} bytes`);
      return { status: 201, jsonBody: { length } };
    },
  });
  app.http('slow', {
    route: 'slow',
    methods: ['GET'],
    authLevel: 'anonymous',
    handler: async () => {
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      return { status: 200 };
    },
  });
  app.http('boom', {
    route: 'boom',
    methods: ['GET', 'POST'],
    authLevel: 'anonymous',
    handler: () => {
      throw new Error(`failed while handling ${secretBodyText}`);
    },
  });
  app.http('plainText', {
    route: 'text',
    methods: ['GET'],
    authLevel: 'anonymous',
    handler: () => ({ body: 'hello', headers: { 'content-type': 'text/plain' } }),
  });
  app.storageQueue('recordWork', {
    queueName: 'sample-work',
    connection: 'AzureWebJobsStorage',
    handler: (message: unknown, context: InvocationContext) => {
      received.push({ value: message, metadata: { ...context.triggerMetadata }, at: Date.now() });
    },
  });
  app.storageQueue('outlivesTimeout', {
    queueName: 'sample-slow',
    connection: 'AzureWebJobsStorage',
    handler: async (message: unknown, context: InvocationContext) => {
      await new Promise((resolve) => setTimeout(resolve, 800));
      received.push({ value: message, metadata: { ...context.triggerMetadata }, at: Date.now() });
    },
  });
  app.storageQueue('alwaysFails', {
    queueName: 'sample-failing',
    connection: 'AzureWebJobsStorage',
    handler: () => {
      calls.failing += 1;
      throw new Error(`cannot process ${secretBodyText}`);
    },
  });
  app.storageQueue('failsTwice', {
    queueName: 'sample-flaky',
    connection: 'AzureWebJobsStorage',
    handler: (message: unknown, context: InvocationContext) => {
      calls.flaky += 1;
      if (calls.flaky <= 2) throw new Error('not yet');
      flakyReceived.push({ value: message, metadata: { ...context.triggerMetadata }, at: Date.now() });
    },
  });
}

/** The time the sample timer function runs on, moved by its test. */
const timerTime = manualTime(new Date('2026-11-23T10:00:00.400Z'));
/** Timer invocations seen by the sample timer function. */
const ticks: { at: string; timer: Timer }[] = [];
/** Ends the sample timer function's first run, which lasts until then. */
let endFirstRun: () => void = () => undefined;
const firstRunEnded = new Promise<void>((resolve) => (endFirstRun = resolve));

function registerSampleTimer(): void {
  app.timer('everySecond', {
    schedule: '* * * * * *',
    handler: async (timer) => {
      ticks.push({ at: timerTime.clock().toISOString(), timer });
      // Held over the next occurrence, which then waits for this run to end.
      if (ticks.length === 1) await firstRunEnded;
    },
  });
}

function base64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('local host', () => {
  let azurite: RunningAzurite;
  let server: RunningLocalHttpServer;
  let queues: QueueServiceClient;
  let functions: CapturedFunction[];
  const logger = new RecordingLogger();
  const calls = { echo: 0, failing: 0, flaky: 0 };
  const received: RecordedMessage[] = [];
  const flakyReceived: RecordedMessage[] = [];
  /** Every poll of the sample queues, with the time it was reported. */
  const polls: (QueuePoll & { at: number })[] = [];
  const url = (path: string): string => `${server.baseUrl}/pos/v1/${path}`;
  /** POSTs a streamed body to the echo function with a valid key: sent chunked, as it arrives. */
  const postChunkedToEcho = (body: ReadableStream<Uint8Array>): Promise<Response> =>
    fetch(url('echo'), { method: 'POST', headers: { 'x-functions-key': key }, body, duplex: 'half' } as RequestInit);

  // What beforeAll started, stopped in reverse order (only what did start, should it fail midway).
  const stops: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    azurite = await startAzurite({ inMemory: true });
    stops.push(() => azurite.stop());
    queues = QueueServiceClient.fromConnectionString(azurite.connectionString);
    functions = captureRegistrations(() => {
      registerSampleTable(calls, received, flakyReceived);
    });
    server = await startLocalHttpServer({
      functions,
      routePrefix: 'pos/v1',
      hostBodyLimitBytes,
      homepageDisabled: false,
      logger,
      port: 0,
      timeouts: { headersMs: 1_000, bodyGraceMs: 1_000, minBodyBytesPerSecond: 1_000, drainMs: 2_000, functionMs: 1_500 },
    });
    stops.push(() => server.close());
    const poller = new QueuePoller({
      functions,
      queueServiceClient: queues,
      logger,
      visibilityTimeoutSeconds: 1,
      maxPollingIntervalMs: 200,
      functionTimeoutMs: 400,
      onPoll: (poll) => polls.push({ ...poll, at: Date.now() }),
    });
    await poller.start();
    stops.push(() => poller.stop());
  }, 30_000);

  afterAll(async () => {
    for (const stop of stops.reverse()) await stop();
  });

  describe('captured registrations', () => {
    it('parses what app.http / app.storageQueue hand to the worker', () => {
      const item = functions.find((fn) => fn.name === 'getItem');
      expect(item).toMatchObject({
        kind: 'http',
        route: 'stores/{storeId}/items/{id}',
        methods: ['GET'],
        authLevel: 'function',
        metadata: { name: 'getItem', bindings: { $return: { type: 'http', direction: 'out' } } },
      });
      expect(item?.triggerBinding).toMatchObject({ type: 'httpTrigger', direction: 'in' });
      expect(functions.find((fn) => fn.name === 'recordWork')).toMatchObject({
        kind: 'queue',
        queueName: 'sample-work',
        connection: 'AzureWebJobsStorage',
      });
    });

    it('captures the same names again in a later capture', () => {
      const again = captureRegistrations(() => {
        registerSampleTable({ echo: 0, failing: 0, flaky: 0 }, [], []);
      });
      expect(again.map((fn) => fn.name)).toEqual(functions.map((fn) => fn.name));
    });

    it('refuses registrations made outside a capture', () => {
      expect(() => {
        app.http('stray', { handler: () => ({}) });
      }).toThrow(/outside captureRegistrations/);
    });
  });

  describe('HTTP', () => {
    it('serves an anonymous route with headers and a JSON body', async () => {
      const response = await fetch(url('ping'));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/json');
      expect(response.headers.get('x-sample')).toBe('yes');
      expect(await response.json()).toEqual({ pong: true });
    });

    it("keeps an idle connection open as long as the front end's Kestrel does (130 s), not Node's 5 s", async () => {
      const response = await fetch(url('ping'));
      await response.text();
      expect(response.headers.get('keep-alive')).toBe('timeout=130');
    });

    it('keeps a content type the handler chose', async () => {
      const response = await fetch(url('text'));
      expect(response.headers.get('content-type')).toBe('text/plain');
      expect(await response.text()).toBe('hello');
    });

    it('matches literal segments case-insensitively', async () => {
      const response = await fetch(`${server.baseUrl}/POS/V1/Ping`);
      expect(response.status).toBe(200);
    });

    it('decodes route parameters but an encoded slash, as the host does, and passes the query', async () => {
      const response = await fetch(url('stores/S%2F1/items/a%20b?q=x'), { headers: { 'x-functions-key': key } });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ route: 'item', params: { storeId: 'S%2F1', id: 'a b' }, q: 'x', hasKeyHeader: true });
    });

    it('prefers a literal segment over a parameter', async () => {
      const response = await fetch(url('stores/S1/items/latest'), { headers: { 'x-functions-key': key } });
      expect(await response.json()).toEqual({ route: 'latest', storeId: 'S1' });
    });

    it('answers 404 with an empty body for unknown routes and outside the prefix, as the host does', async () => {
      for (const path of [url('nope'), `${server.baseUrl}/api/ping`, url('stores/S1/items'), url('ping/extra')]) {
        const response = await fetch(path);
        expect(response.status).toBe(404);
        expect(await response.text()).toBe('');
      }
    });

    it('answers `/` itself with its page while the homepage is on, whatever the method', async () => {
      for (const method of ['GET', 'POST', 'DELETE']) {
        const response = await fetch(`${server.baseUrl}/?code=${key}`, { method, body: method === 'POST' ? '{}' : null });
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe('text/html');
        expect(await response.text()).toContain('The Functions host is running.');
      }
      expect(logger.text()).not.toContain(key);
    });

    it('answers 404 (never 405) with an empty body for a known route with another method', async () => {
      for (const method of ['DELETE', 'PUT', 'POST']) {
        const response = await fetch(url('ping'), { method, body: method === 'DELETE' ? null : '{}' });
        expect(response.status).toBe(404);
        expect(response.headers.get('allow')).toBeNull();
        expect(await response.text()).toBe('');
      }
    });

    it('answers 401 with an empty body on a function-level route without a key, before the handler runs', async () => {
      const before = calls.echo;
      const keyHeaders: Record<string, string>[] = [{}, { 'x-functions-key': '' }, { 'x-functions-key': '   ' }];
      for (const headers of keyHeaders) {
        const response = await fetch(url('echo'), { method: 'POST', headers, body: 'x' });
        expect(response.status).toBe(401);
        expect(response.headers.get('content-type')).toBeNull();
        expect(await response.text()).toBe('');
      }
      expect(calls.echo).toBe(before);
    });

    it('accepts the key in the code query parameter', async () => {
      const response = await fetch(url(`stores/S1/items/7?code=${key}`));
      expect(response.status).toBe(200);
    });

    it('checks the first x-functions-key header whenever one is sent, as Azure does, never code beside it', async () => {
      const emptyHeaderBesideCode = await fetch(url(`stores/S1/items/7?code=${key}`), { headers: { 'x-functions-key': '' } });
      expect(emptyHeaderBesideCode.status).toBe(401);
      const twoHeaders = (first: string, second: string) =>
        rawRequest(
          server.port,
          `GET /pos/v1/stores/S1/items/7 HTTP/1.1\r\nHost: x\r\nx-functions-key: ${first}\r\nx-functions-key: ${second}\r\nConnection: close\r\n\r\n`,
        );
      expect(await twoHeaders(key, '')).toMatch(/^HTTP\/1\.1 200/);
      expect(await twoHeaders('', key)).toMatch(/^HTTP\/1\.1 401/);
    });

    it('runs a POST under the cap and returns its status', async () => {
      const response = await fetch(url('echo'), { method: 'POST', headers: { 'x-functions-key': key }, body: 'a'.repeat(maxBodyBytes) });
      expect(response.status).toBe(201);
      expect(await response.json()).toEqual({ length: maxBodyBytes });
    });

    it('fails the invocation with an empty 500, without running the function, when Content-Length is over the host limit', async () => {
      const before = calls.echo;
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const response = await fetch(url('echo'), {
          method: 'POST',
          headers: { 'x-functions-key': key, 'content-type': 'application/json' },
          body: Buffer.alloc(hostBodyLimitBytes * 2, 0x61),
        });
        // Azure's host, not the 413 one might expect: see hostBodyLimitBytes in startLocalHttpServer.
        expect(response.status).toBe(500);
        expect(await response.text()).toBe('');
      }
      expect(calls.echo).toBe(before);
      expect(logger.lines).toContainEqual({
        level: 'error',
        line: 'POST /pos/v1/echo: the declared body is larger than FUNCTIONS_REQUEST_BODY_SIZE_LIMIT; the invocation failed.',
      });
    });

    it('receives a body with Content-Length whole before the function runs, as the host binding does', async () => {
      for (let attempt = 0; attempt < 20; attempt += 1) {
        const response = await fetch(url('echo'), {
          method: 'POST',
          headers: { 'x-functions-key': key },
          body: Buffer.alloc(hostBodyLimitBytes - 1, 0x61),
        });
        expect(response.status).toBe(413);
        // The whole body had arrived: the connection need not be given up.
        expect(response.headers.get('connection')).not.toBe('close');
        expect(await response.json()).toEqual({ tooLarge: true });
      }
    });

    it('fails the invocation, without running the function, when a Content-Length body is cut off', async () => {
      const before = calls.echo;
      await new Promise<void>((resolve) => {
        const socket = net.connect(server.port, '127.0.0.1', () => {
          socket.write(`POST /pos/v1/echo HTTP/1.1\r\nHost: x\r\nx-functions-key: ${key}\r\nContent-Length: 1000\r\n\r\n${'a'.repeat(10)}`);
          setTimeout(() => socket.destroy(), 100);
        });
        socket.on('error', () => undefined);
        socket.on('close', () => {
          resolve();
        });
      });
      await waitFor(
        () =>
          logger.lines.some(
            (entry) => entry.level === 'error' && entry.line.startsWith('POST /pos/v1/echo: the request body could not be read'),
          ),
        3_000,
      );
      expect(calls.echo).toBe(before);
    });

    it('lets every client read the answer of a function that stopped reading a large chunked body', async () => {
      for (let attempt = 0; attempt < 5; attempt += 1) {
        const body = repeatedChunks(new Uint8Array(64 * 1024).fill(0x61), hostBodyLimitBytes / 2);
        const response = await postChunkedToEcho(body);
        expect(response.status).toBe(413);
        expect(await response.json()).toEqual({ tooLarge: true });
      }
    });

    it("hands a chunked body that grows past the function's cap to the function, which answers", async () => {
      const before = calls.echo;
      const body = repeatedChunks(new Uint8Array(512).fill(0x62), 64 * 1024);
      const response = await postChunkedToEcho(body);
      expect(response.status).toBe(413);
      expect(await response.json()).toEqual({ tooLarge: true });
      expect(calls.echo).toBe(before + 1);
      // The server stays usable afterwards.
      expect((await fetch(url('ping'))).status).toBe(200);
    });

    it('accepts a chunked body under the cap', async () => {
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new Uint8Array(300));
          controller.enqueue(new Uint8Array(200));
          controller.close();
        },
      });
      const response = await postChunkedToEcho(body);
      expect(await response.json()).toEqual({ length: 500 });
    });

    it('answers 500 with an empty body when a handler throws, and logs without the body', async () => {
      const response = await fetch(url('boom'), { method: 'POST', body: secretBodyText });
      expect(response.status).toBe(500);
      expect(await response.text()).toBe('');
      expect(logger.lines.some((entry) => entry.level === 'error' && entry.line.includes('boom'))).toBe(true);
    });

    it('answers 500 once an invocation outlives functionTimeout', async () => {
      // The handler itself would answer 200, after the timeout.
      const response = await fetch(url('slow'));
      expect(response.status).toBe(500);
    });

    it('closes a connection whose headers do not arrive in time', async () => {
      const closedAfter = await new Promise<number>((resolve, reject) => {
        const started = Date.now();
        const socket = net.connect(server.port, '127.0.0.1', () => {
          socket.write('GET /pos/v1/ping HTTP/1.1\r\nHost: x\r\n');
        });
        socket.on('error', reject);
        socket.on('data', () => undefined);
        socket.on('close', () => {
          resolve(Date.now() - started);
        });
      });
      expect(closedAfter).toBeGreaterThanOrEqual(900);
      expect(closedAfter).toBeLessThan(5_000);
    });

    it('closes a connection whose body trickles in under the minimum rate', async () => {
      const outcome = await new Promise<{ ms: number; text: string }>((resolve, reject) => {
        const started = Date.now();
        let text = '';
        const socket = net.connect(server.port, '127.0.0.1', () => {
          socket.write(`POST /pos/v1/echo HTTP/1.1\r\nHost: x\r\nx-functions-key: ${key}\r\nContent-Length: 1000\r\n\r\n`);
          const timer = setInterval(() => {
            if (!socket.destroyed) socket.write('a');
          }, 200);
          socket.on('close', () => {
            clearInterval(timer);
            resolve({ ms: Date.now() - started, text });
          });
        });
        socket.on('error', reject);
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString('latin1');
        });
      });
      expect(outcome.ms).toBeLessThan(5_000);
      expect(outcome.text).toMatch(/^HTTP\/1\.1 408/);
    });

    it('routes handler log calls to the logger and logs its own answers without keys or bodies', () => {
      expect(logger.lines).toContainEqual({ level: 'info', line: '[echoLength] echo received 1024 bytes' });
      expect(logger.lines.some((entry) => /^POST \/pos\/v1\/echo 401 \d+ms$/.test(entry.line))).toBe(true);
      expect(logger.lines).toContainEqual({ level: 'error', line: expect.stringMatching(/^POST \/pos\/v1\/echo 500 \d+ms$/) as unknown });
      expect(logger.lines.some((entry) => /^DELETE \/pos\/v1\/ping 404 \d+ms$/.test(entry.line))).toBe(true);
      expect(logger.text()).not.toContain(key);
      expect(logger.text()).not.toContain(secretBodyText);
    });

    it('asks the injected key check and serves a second capture on its own port', async () => {
      const second = await startLocalHttpServer({
        functions: captureRegistrations(() => {
          registerSampleTable({ echo: 0, failing: 0, flaky: 0 }, [], []);
        }),
        routePrefix: '',
        hostBodyLimitBytes,
        homepageDisabled: true,
        logger: new RecordingLogger(),
        isValidHostKey: (candidate) => Promise.resolve(candidate === 'good'),
      });
      try {
        expect(second.port).not.toBe(server.port);
        const bad = await fetch(`${second.baseUrl}/stores/S1/items/1`, { headers: { 'x-functions-key': 'bad' } });
        expect(bad.status).toBe(401);
        const good = await fetch(`${second.baseUrl}/stores/S1/items/1`, { headers: { 'x-functions-key': 'good' } });
        expect(good.status).toBe(200);
        // The homepage off (AzureWebJobsDisableHomepage): `/` is an empty 204, not a page.
        const home = await fetch(`${second.baseUrl}/`);
        expect(home.status).toBe(204);
        expect(await home.text()).toBe('');
      } finally {
        await second.close();
      }
    });
  });

  it('answers 500 once the request outlives its 230 s cap, even under a longer functionTimeout', async () => {
    const capped = await startLocalHttpServer({
      functions: captureRegistrations(() => {
        registerSampleTable({ echo: 0, failing: 0, flaky: 0 }, [], []);
      }),
      routePrefix: '',
      hostBodyLimitBytes,
      homepageDisabled: true,
      logger: new RecordingLogger(),
      timeouts: { headersMs: 1_000, requestMs: 1_000, functionMs: 60_000 },
    });
    try {
      const started = Date.now();
      // The handler itself would answer 200 after 3 s.
      const response = await fetch(`${capped.baseUrl}/slow`);
      expect(response.status).toBe(500);
      expect(Date.now() - started).toBeLessThan(2_500);
    } finally {
      await capped.close();
    }
  });

  it('answers 503 with Retry-After, not 500, when the key check cannot reach storage', async () => {
    const keyLogger = new RecordingLogger();
    const server = await startLocalHttpServer({
      functions: captureRegistrations(() => {
        registerSampleTable({ echo: 0, failing: 0, flaky: 0 }, [], []);
      }),
      routePrefix: '',
      hostBodyLimitBytes,
      homepageDisabled: true,
      logger: keyLogger,
      isValidHostKey: () => Promise.reject(new StorageError('unavailable', undefined, 'ETIMEDOUT')),
    });
    try {
      const answer = await fetch(`${server.baseUrl}/stores/S1/items/1`, { headers: { 'x-functions-key': 'some-key-value' } });
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(await answer.text()).toBe('');
      expect(keyLogger.lines.some((entry) => entry.level === 'warn' && entry.line.includes('the key could not be checked'))).toBe(true);
      expect(keyLogger.text()).not.toContain('some-key-value');
    } finally {
      await server.close();
    }
  });

  describe('timers', () => {
    /** Runs the timer functions from the manual clock's time for `ms`, then stops them. */
    const runTimers = async (functions: CapturedFunction[], time: ReturnType<typeof manualTime>, ms: number): Promise<void> => {
      const runner = new TimerRunner({ functions, logger, clock: time.clock, scheduler: time.scheduler, functionTimeoutMs: 60_000 });
      runner.start();
      try {
        await time.advance(ms);
      } finally {
        await runner.stop();
      }
    };

    it('runs a timer function on its NCRONTAB schedule, an occurrence missed during a run once it ends, and stops', async () => {
      const timerFunctions = captureRegistrations(registerSampleTimer);
      expect(timerFunctions[0]).toMatchObject({ kind: 'timer', schedule: '* * * * * *', runOnStartup: false, useMonitor: true });
      const runner = new TimerRunner({
        functions: timerFunctions,
        logger,
        clock: timerTime.clock,
        scheduler: timerTime.scheduler,
        functionTimeoutMs: 50,
      });
      runner.start(); // at 10:00:00.400
      try {
        await timerTime.advance(600);
        expect(ticks.map((tick) => tick.at)).toEqual(['2026-11-23T10:00:01.000Z']);
        // The first run is still going at 10:00:02: that occurrence waits for it (one run at a time).
        await timerTime.advance(1_500);
        expect(ticks).toHaveLength(1);
        // Still running after functionTimeout, which in Azure would end it: said as an error.
        await waitFor(
          () => logger.lines.some((entry) => entry.level === 'error' && /^Function everySecond .* after functionTimeout/.test(entry.line)),
          2_000,
        );
        // Ended at 10:00:02.500: the occurrence it outlived runs at once, as Azure's timer listener
        // runs it, and the schedule goes on from that run.
        endFirstRun();
        await timerTime.advance(1_500);
      } finally {
        endFirstRun();
        await runner.stop();
      }
      expect(ticks.map((tick) => tick.at)).toEqual([
        '2026-11-23T10:00:01.000Z',
        '2026-11-23T10:00:02.500Z',
        '2026-11-23T10:00:03.000Z',
        '2026-11-23T10:00:04.000Z',
      ]);
      expect(logger.lines.some((entry) => entry.level === 'warn' && entry.line.includes('everySecond'))).toBe(false);
      // A schedule under a minute has no schedule monitor in Azure: its runs get no status.
      for (const tick of ticks) expect(tick.timer).toEqual({ isPastDue: false, schedule: { adjustForDST: true }, scheduleStatus: null });
      // Stopped: nothing left scheduled, and no run however far time moves on.
      expect(timerTime.pending()).toBe(0);
      await timerTime.advance(5_000);
      expect(ticks).toHaveLength(4);
    });

    it('runs a runOnStartup function at once, then on its schedule, each run handed the status before it', async () => {
      const time = manualTime(new Date('2026-11-23T10:00:07.250Z'));
      const runs: { at: string; timer: Timer }[] = [];
      const functions = captureRegistrations(() => {
        app.timer('atStartup', {
          schedule: '30 * * * * *',
          runOnStartup: true,
          handler: (timer) => {
            runs.push({ at: time.clock().toISOString(), timer });
          },
        });
      });
      await runTimers(functions, time, 85_000);
      expect(runs.map((run) => run.at)).toEqual(['2026-11-23T10:00:07.250Z', '2026-11-23T10:00:30.000Z', '2026-11-23T10:01:30.000Z']);
      // As the host writes them: .NET's default time for "never", a +00:00 offset, no trailing zeros.
      expect(runs.map((run) => run.timer.scheduleStatus)).toEqual([
        { last: '0001-01-01T00:00:00+00:00', next: '2026-11-23T10:00:30+00:00', lastUpdated: '0001-01-01T00:00:00+00:00' },
        { last: '2026-11-23T10:00:07.25+00:00', next: '2026-11-23T10:00:30+00:00', lastUpdated: '2026-11-23T10:00:07.25+00:00' },
        { last: '2026-11-23T10:00:30+00:00', next: '2026-11-23T10:01:30+00:00', lastUpdated: '2026-11-23T10:00:30+00:00' },
      ]);
      for (const run of runs) expect(run.timer.isPastDue).toBe(false);
    });

    it('hands no schedule status to a function registered without the monitor, and one to a sub-minute schedule limited to an hour', async () => {
      const time = manualTime(new Date('2026-11-23T10:00:07.250Z'));
      const runs: { name: string; timer: Timer }[] = [];
      const functions = captureRegistrations(() => {
        app.timer('unmonitored', {
          schedule: '0 * * * * *',
          useMonitor: false,
          handler: (timer) => {
            runs.push({ name: 'unmonitored', timer });
          },
        });
        // Every 20 s, but only in hour 10: the host keeps its status (only `*` above the seconds turns it off).
        app.timer('withinAnHour', {
          schedule: '*/20 * 10 * * *',
          handler: (timer) => {
            runs.push({ name: 'withinAnHour', timer });
          },
        });
      });
      expect(functions.map((fn) => (fn.kind === 'timer' ? fn.useMonitor : undefined))).toEqual([false, true]);
      await runTimers(functions, time, 55_000);
      // The library's type has no null; the host passes one.
      const nextOf = (timer: Timer) => (timer.scheduleStatus as Timer['scheduleStatus'] | null)?.next ?? null;
      expect(runs.map((run) => [run.name, nextOf(run.timer)])).toEqual([
        ['withinAnHour', '2026-11-23T10:00:20+00:00'],
        ['withinAnHour', '2026-11-23T10:00:40+00:00'],
        ['unmonitored', null],
        ['withinAnHour', '2026-11-23T10:01:00+00:00'],
      ]);
    });
  });

  describe('queues', () => {
    it('delivers a base64 JSON message decoded, with trigger metadata', async () => {
      const sent = await queues.getQueueClient('sample-work').sendMessage(base64Json({ kind: 'first', n: 1 }));
      await waitFor(() => received.some((message) => message.metadata.id === sent.messageId), 5_000);
      const message = received.find((entry) => entry.metadata.id === sent.messageId)!;
      expect(message.value).toEqual({ kind: 'first', n: 1 });
      expect(message.metadata).toMatchObject({ dequeueCount: 1, popReceipt: anyString(), insertionTime: anyString() });
      expect(message.metadata.expirationTime).toEqual(anyString());
      expect(message.metadata.nextVisibleTime).toEqual(anyString());
      // Deleted after success.
      await waitFor(async () => (await queues.getQueueClient('sample-work').getProperties()).approximateMessagesCount === 0, 3_000);
    });

    it("lets a JSON object message's own properties replace the metadata of the same name, as Azure does", async () => {
      const queue = queues.getQueueClient('sample-work');
      await queue.sendMessage(base64Json({ kind: 'named', id: 'payload-id', dequeueCount: 99 }));
      await waitFor(() => received.some((message) => message.metadata.id === 'payload-id'), 5_000);
      const message = received.find((entry) => entry.metadata.id === 'payload-id')!;
      expect(message.value).toEqual({ kind: 'named', id: 'payload-id', dequeueCount: 99 });
      expect(message.metadata).toMatchObject({ kind: 'named', id: 'payload-id', dequeueCount: 99, popReceipt: anyString() });
      // The poller itself still completes the message by its own id.
      await waitFor(async () => (await queue.getProperties()).approximateMessagesCount === 0, 3_000);
    });

    it('hands over a non-JSON message as the decoded string', async () => {
      const sent = await queues.getQueueClient('sample-work').sendMessage(Buffer.from('plain words').toString('base64'));
      await waitFor(() => received.some((message) => message.metadata.id === sent.messageId), 5_000);
      expect(received.find((entry) => entry.metadata.id === sent.messageId)!.value).toBe('plain words');
    });

    it('moves a message that is not base64 to the poison queue at once, without running the function', async () => {
      const sent = await queues.getQueueClient('sample-work').sendMessage('not base64 {"kind":"raw"}');
      const poisonQueue = queues.getQueueClient('sample-work-poison');
      await waitFor(async () => (await poisonQueue.peekMessages()).peekedMessageItems.length === 1, 5_000);
      const [poisoned] = (await poisonQueue.peekMessages()).peekedMessageItems;
      expect(poisoned!.messageText).toBe('not base64 {"kind":"raw"}');
      expect(received.some((message) => message.metadata.id === sent.messageId)).toBe(false);
      expect(logger.lines).toContainEqual({
        level: 'error',
        line: `message ${sent.messageId} on queue sample-work is not base64-encoded; it is not run.`,
      });
      // Logged once the message is also deleted from its queue, a request after the poison queue's send.
      const moved = `Message ${sent.messageId} from queue sample-work moved to sample-work-poison after 1 dequeues (limit 5).`;
      await waitFor(() => logger.lines.some((entry) => entry.level === 'error' && entry.line === moved), 5_000);
    });

    it('reports a run still going at functionTimeout as an error, and lets it finish', async () => {
      const sent = await queues.getQueueClient('sample-slow').sendMessage(base64Json({ kind: 'slow' }));
      await waitFor(() => received.some((message) => message.metadata.id === sent.messageId), 5_000);
      const reported = logger.lines.filter(
        (entry) =>
          entry.level === 'error' &&
          /^Function outlivesTimeout \(invocation .+\) is still running after functionTimeout \(400 ms\)/.test(entry.line),
      );
      expect(reported).toHaveLength(1);
      await waitFor(async () => (await queues.getQueueClient('sample-slow').getProperties()).approximateMessagesCount === 0, 3_000);
    });

    it('does not deliver a message before its visibility delay', async () => {
      const sentAt = Date.now();
      const sent = await queues.getQueueClient('sample-work').sendMessage(base64Json({ kind: 'delayed' }), { visibilityTimeout: 2 });
      const acknowledgedAt = Date.now();
      // Two polls of the queue reported after the send: the second was made after it, and found
      // nothing if it was made within the delay (a loaded machine may poll later than that).
      const pollsSince = (): (QueuePoll & { at: number })[] =>
        polls.filter((poll) => poll.queueName === 'sample-work' && poll.at >= acknowledgedAt);
      await waitFor(() => pollsSince().length >= 2, 5_000);
      const second = pollsSince()[1]!;
      if (second.at - sentAt < 1_900) {
        expect(second).toMatchObject({ received: 0, failed: false });
        expect(received.some((message) => message.at <= second.at && message.metadata.id === sent.messageId)).toBe(false);
      }
      await waitFor(() => received.some((message) => message.metadata.id === sent.messageId), 4_000);
      const message = received.find((entry) => entry.metadata.id === sent.messageId)!;
      expect(message.at - sentAt).toBeGreaterThanOrEqual(1_900);
    }, 10_000);

    it('retries a failing handler and delivers once it succeeds', async () => {
      await queues.getQueueClient('sample-flaky').sendMessage(base64Json({ kind: 'flaky' }));
      await waitFor(() => flakyReceived.length === 1, 8_000);
      expect(calls.flaky).toBe(3);
      expect(flakyReceived[0]!.metadata.dequeueCount).toBe(3);
      const poison = await queues.getQueueClient('sample-flaky-poison').peekMessages();
      expect(poison.peekedMessageItems).toHaveLength(0);
    }, 10_000);

    it('moves a message to the poison queue after 5 failed dequeues and logs an error', async () => {
      const text = base64Json({ kind: 'doomed', note: secretBodyText });
      const sent = await queues.getQueueClient('sample-failing').sendMessage(text);
      const poisonQueue = queues.getQueueClient('sample-failing-poison');
      await waitFor(async () => (await poisonQueue.peekMessages()).peekedMessageItems.length === 1, 12_000);
      expect(calls.failing).toBe(5);
      const [poisoned] = (await poisonQueue.peekMessages()).peekedMessageItems;
      expect(poisoned!.messageText).toBe(text);
      // Deleted from its queue one request after the poison queue's send, then logged.
      await waitFor(async () => (await queues.getQueueClient('sample-failing').getProperties()).approximateMessagesCount === 0, 5_000);
      expect(
        logger.lines.some(
          (entry) =>
            entry.level === 'error' &&
            entry.line.includes(sent.messageId) &&
            entry.line.includes('sample-failing') &&
            entry.line.includes('sample-failing-poison'),
        ),
      ).toBe(true);
      expect(logger.text()).not.toContain(secretBodyText);
      expect(logger.text()).not.toContain(text);
    }, 15_000);
  });
});

/** Sends raw bytes (what fetch would refuse to send) and resolves with the whole answer once the server closes. */
function rawRequest(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(request);
    });
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      resolve(text);
    });
  });
}

/** A chunked body: `chunk` again and again until `totalBytes` have been sent, one per read. */
function repeatedChunks(chunk: Uint8Array, totalBytes: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= totalBytes) {
        controller.close();
        return;
      }
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
}
