import net from 'node:net';
import { HttpRequest, InvocationContext } from '@azure/functions';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHttpHandler } from '../../src/http/createHttpHandler.js';
import { pushEndpoint } from '../../src/http/endpoints/pushEndpoint.js';
import { buildMappingBatch } from '../fixtures/masterDataFixtures.js';
import { fixtureBusinessDate } from '../fixtures/tradeRecordFixtures.js';
import { FaultPolicy, isTableRead } from '../reliability/support/faultPolicy.js';
import { eventually, startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { newBatchId, partnerWithStores, tradeBatch, usdStore } from '../support/httpScenario.js';
import { errorOf, type TestResponse } from '../support/responseBodies.js';

const policy = new FaultPolicy();
let service: TestService;
let partner: TestPartner;
beforeAll(async () => {
  service = await startTestService({ services: { policy } });
  partner = await partnerWithStores(service);
});
afterAll(async () => {
  await service.stop();
});

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function expectEnvelope(response: TestResponse, label: string): string {
  expect(response.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(response.headers.get('cache-control'), label).toBe('no-store');
  const requestId = response.headers.get('x-request-id') ?? '';
  expect(requestId, label).toMatch(uuidPattern);
  if (response.status >= 400) expect(errorOf(response).request_id, label).toBe(requestId);
  return requestId;
}

describe('what every answer of the service carries', () => {
  it('x-request-id (also in error bodies), X-Content-Type-Options: nosniff and Cache-Control: no-store, on every route and status', async () => {
    const inactive = await partnerWithStores(service);
    await service.hq('partner', 'deactivate', inactive.partnerId);
    const batch = tradeBatch();
    const calls: [TestPartner | null, string, string, unknown, number][] = [
      [null, 'GET', 'health', undefined, 200],
      [partner, 'GET', 'reference/transaction-types', undefined, 200],
      [partner, 'PUT', 'mappings/transaction-types', { ...buildMappingBatch(), batch_id: newBatchId() }, 202],
      [partner, 'GET', 'mappings/transaction-types', undefined, 200],
      [partner, 'POST', 'trade-records', batch, 202],
      [partner, 'POST', 'trade-records', batch, 200],
      [partner, 'POST', 'trade-records', { ...tradeBatch(), batch_seq: 0 }, 400],
      [partner, 'GET', `daily-close/${usdStore}/${fixtureBusinessDate}`, undefined, 200],
      [partner, 'GET', `daily-close/NOT-MINE/${fixtureBusinessDate}`, undefined, 403],
      [partner, 'PUT', 'stores', '{"batch_id":', 400],
      [inactive, 'GET', 'mappings/transaction-types', undefined, 403],
    ];
    const ids = new Set<string>();
    for (const [caller, method, path, body, status] of calls) {
      const response = await service.call(caller, method, path, body);
      expect(response.status, `${method} ${path}`).toBe(status);
      ids.add(expectEnvelope(response, `${method} ${path}`));
    }
    expect(ids.size).toBe(calls.length);
  });
});

describe('transient and permanent failures', () => {
  it('storage refusing our credentials (it may be fixed any minute) answers 503 with Retry-After and is logged as a warning, not an error', async () => {
    policy.answerWith(isTableRead('reconciliations'), 403, 'AuthorizationPermissionMismatch');
    const before = service.logs.length;
    const response = await service.call(partner, 'GET', `daily-close/${usdStore}/${fixtureBusinessDate}`);
    expect(response.status).toBe(503);
    expect(errorOf(response).code).toBe('SERVICE_UNAVAILABLE');
    expect(response.headers.get('retry-after')).toBe('5');
    expect(errorOf(response).message).toMatch(/retry/i);
    const requestId = expectEnvelope(response, '503');
    const lines = service.logs.filter((line) => line.includes(requestId));
    expect(lines.some((line) => line.startsWith('WARN') && line.includes('storage unavailable'))).toBe(true);
    expect(lines.filter((line) => line.startsWith('ERROR'))).toEqual([]);
    // Counted for the alert on storage answering 503s, with where and what storage said.
    const route = encodeURIComponent('/pos/v1/daily-close/{store_id}/{business_date}');
    expect(service.logs.slice(before).filter((line) => line.includes('metric storage_unavailable '))).toEqual([
      expect.stringMatching(new RegExp(`metric storage_unavailable 1 route=${route} status=403 code=AuthorizationPermissionMismatch$`)),
    ]);
  });

  it('a failure a retry cannot fix answers 500 saying not to retry, and HQ finds its cause in one ERROR line by the request id', async () => {
    policy.answerWith(isTableRead('reconciliations'), 400, 'InvalidInput');
    const response = await service.call(partner, 'GET', `daily-close/${usdStore}/${fixtureBusinessDate}`);
    expect(response.status).toBe(500);
    expect(errorOf(response).code).toBe('INTERNAL_ERROR');
    expect(errorOf(response).message).toMatch(/do not send it again unchanged/);
    expect(errorOf(response).message).not.toMatch(/safe to retry/);
    expect(response.headers.get('retry-after')).toBeNull();
    const requestId = expectEnvelope(response, '500');
    const errors = service.logs.filter((line) => line.startsWith('ERROR') && line.includes(requestId));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/StorageError: storage refused the content: 400 InvalidInput/);
    // Where it was thrown: the stack's frames, one per line, naming the service's own code.
    const frames = errors[0]!.split('\n').slice(1);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((frame) => /^ {4}at \S/.test(frame))).toBe(true);
    expect(frames.some((frame) => frame.includes('ReconciliationRepository'))).toBe(true);
  });
});

describe('a client that aborts its upload', () => {
  it('is logged at info level as a client abort, never as an error or a 500, when its body is chunked', async () => {
    // A body with Content-Length is received whole by the host before the service sees it: one cut
    // off fails in the host (test/localhost), and the service never runs.
    const url = new URL(service.baseUrl);
    const before = service.logs.length;
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(
        `POST ${url.pathname}/trade-records HTTP/1.1\r\nHost: ${url.host}\r\nx-functions-key: ${partner.key}\r\n` +
          `Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nd\r\n{"batch_id":"\r\n`,
      );
    });
    // Cut off once the service holds the body's first bytes: its read is then under way, however
    // long the host took to check the key on a loaded machine.
    await vi.waitFor(
      () => {
        expect(service.services.bodyBudget.heldBy(partner.partnerId)).toBeGreaterThan(0);
      },
      { timeout: 30_000 },
    );
    socket.destroy();
    const lines = await eventually(
      () => Promise.resolve(service.logs.slice(before)),
      (logged) => logged.some((line) => line.includes('client abort')),
    );
    expect(lines.filter((line) => line.includes('client abort') && line.startsWith('INFO'))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('ERROR'))).toEqual([]);
    expect(lines.filter((line) => line.includes(' 500 '))).toEqual([]);
  });

  it('when the body arrives as a stream that breaks off, the service answers 499 and logs a client abort at info', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('{"batch_id":"'));
        controller.error(new Error('socket hang up'));
      },
    });
    const nativeRequest = new Request('http://localhost/pos/v1/trade-records', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-functions-key': partner.key },
      body,
      duplex: 'half',
    } as RequestInit);
    // The worker builds requests around the host's stream this way when HTTP streaming is on.
    const request = new HttpRequest({ method: 'POST', url: nativeRequest.url, nativeRequest } as ConstructorParameters<
      typeof HttpRequest
    >[0]);
    const lines: string[] = [];
    const context = new InvocationContext({
      invocationId: 'abort-test',
      logHandler: (level, ...args) => lines.push(`${level} ${args.map(String).join(' ')}`),
    });
    const handler = createHttpHandler(service.services, {
      route: 'trade-records',
      authenticate: true,
      endpoint: pushEndpoint('tradeRecords', { rateLimited: false }),
    });
    const response = await handler(request, context);
    expect(response.status).toBe(499);
    expect(lines.filter((line) => line.startsWith('information') && line.includes('client abort'))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('error'))).toEqual([]);
  });
});
