/**
 * The spec is true of the running service: every error path of every partner operation is driven
 * through real HTTP, and each answer must be a status the spec lists for that operation, with a
 * body valid against the spec's schema for that status (and Retry-After where the spec says so).
 */
import { randomUUID } from 'node:crypto';
import type { PipelineRequest } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCatalogue, type ErrorCode } from '../../src/errors/errorCatalogue.js';
import { StorageError } from '../../src/errors/StorageError.js';
import { partnerExamples } from '../../src/openapi/partnerExamples.js';
import { renderPartnerOpenApiFile } from '../../src/openapi/writeDocs.js';
import { buildDailyClose, buildMappingBatch, buildProductBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { partnerWithStores, tradeBatch, usdStore } from '../support/httpScenario.js';
import type { TestResponse } from '../support/responseBodies.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { FaultPolicy } from '../reliability/support/faultPolicy.js';
import { pointerToken, specValidator } from './specAjv.js';

interface Operation {
  operationId: string;
  responses: Record<string, { headers?: Record<string, { required?: boolean }>; content?: Record<string, { schema: unknown }> }>;
}
const document = JSON.parse(renderPartnerOpenApiFile()) as { paths: Record<string, Record<string, Operation>> };
const schemaAt = specValidator(document);
const operations = new Map(
  Object.entries(document.paths).flatMap(([route, item]) =>
    Object.entries(item).map(([method, operation]) => [operation.operationId, { route, method, operation }] as const),
  ),
);

/** Batch ids whose push the service is made to fail at its first write step (one per push). */
const failWith500 = new Set<string>();
const failWith503 = new Set<string>();
function failingId(set: Set<string>): string {
  const id = randomUUID();
  set.add(id);
  return id;
}

/** Makes storage refuse what a validated batch writes, as it would a row it cannot hold: the batch ends FAILED. */
const policy = new FaultPolicy();

/**
 * Storage refuses, once, the next write to `table` that names `partnerId` (in its URL or, for a
 * table transaction, in its body): only the batch being sent writes there for that partner.
 */
function refuseNextWrite(table: string, partnerId: string): void {
  policy.answerWith(
    (request: PipelineRequest) => {
      if (request.method === 'GET' || request.method === 'DELETE') return false;
      const url = decodeURIComponent(request.url);
      const body = typeof request.body === 'string' ? request.body : '';
      // `/<table>(keys)`, `/<table>?query`, `/<table>` alone, or `POST …/<table> HTTP/1.1` in a transaction.
      const target = new RegExp(`/${table}([(? ]|$)`, 'm');
      return (target.test(url) || target.test(body)) && (url.includes(partnerId) || body.includes(partnerId));
    },
    400,
    'EntityTooLarge',
  );
}

let service: TestService;
let partner: TestPartner;
let inactive: TestPartner;
let limited: TestPartner;
/** The partner whose batches storage refuses. */
let refused: TestPartner;
/** The partner whose store-day is filled to the limit. */
let crowded: TestPartner;
/** Transactions a store-day takes here: room for every other push of this file to one day. */
const maxTransactionsPerStoreDay = 6;
beforeAll(async () => {
  service = await startTestService({
    settings: { MAX_TRANSACTIONS_PER_STORE_DAY: String(maxTransactionsPerStoreDay) },
    services: {
      policy,
      onPushStep: (_step, batchId) => {
        if (failWith500.has(batchId)) throw new Error('an unexpected failure');
        if (failWith503.has(batchId)) throw new StorageError('unavailable', 503, 'ServerBusy');
      },
    },
  });
  partner = await partnerWithStores(service, { mapping: true });
  refused = await partnerWithStores(service, { mapping: true });
  inactive = await service.createPartner({ stores: [usdStore] });
  expect((await service.hq('partner', 'deactivate', inactive.partnerId)).code).toBe(0);
  limited = await partnerWithStores(service);
  crowded = await partnerWithStores(service);
  expect((await service.hq('partner', 'set-rate-limit', limited.partnerId, '1')).code).toBe(0);
});
afterAll(async () => {
  await service.stop();
});

/** Sends a request to an operation of the spec; path parameters come from `params`. */
function send(
  operationId: string,
  caller: TestPartner | { key: string } | null,
  body?: unknown,
  options: { params?: Record<string, string>; headers?: Record<string, string> } = {},
): Promise<TestResponse> {
  const op = operations.get(operationId);
  if (op === undefined) throw new Error(`No operation ${operationId} in the spec`);
  const path = op.route.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(options.params?.[name] ?? ''));
  return service.call(caller, op.method.toUpperCase(), path, body, options.headers);
}

/** Checks an answer against the spec: a listed status, a body valid for it, Retry-After when required. */
function expectSpecAnswer(operationId: string, response: TestResponse, code?: ErrorCode): void {
  const op = operations.get(operationId)!;
  const status = String(response.status);
  const described = op.operation.responses[status];
  expect(described, `${operationId} answered ${status}, which its spec does not list: ${JSON.stringify(response.body)}`).toBeDefined();
  if (code !== undefined) {
    expect(response.status).toBe(errorCatalogue[code].status);
    // A key the host does not hold is refused by the host itself, without a body (DESIGN §3).
    if (!(code === 'UNAUTHORIZED' && response.body === undefined)) {
      expect((response.body as { error?: { code?: string } } | undefined)?.error?.code).toBe(code);
    }
  }
  // The Functions host answers some refusals itself with an empty body (DESIGN §3).
  if (response.body !== undefined) {
    const validate = schemaAt(`/paths/${pointerToken(op.route)}/${op.method}/responses/${status}/content/application~1json/schema`);
    expect(validate(response.body), `${operationId} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
  for (const [name, header] of Object.entries(described?.headers ?? {})) {
    if (header.required) expect(response.headers.get(name), `${operationId} ${status} ${name}`).not.toBeNull();
  }
}

const driven = new Map<string, Set<string>>();
function record(operationId: string, status: number): void {
  const set = driven.get(operationId) ?? new Set<string>();
  set.add(String(status));
  driven.set(operationId, set);
}

/** A public address literal: registering it resolves no host name. */
const webhookBody = { url: 'https://203.0.114.10/hooks/pos', event_types: ['batch.failed'] };

const dayParams = { store_id: usdStore, business_date: '2026-03-01' };

type Case = readonly [operationId: string, code: ErrorCode, run: () => Promise<TestResponse>];

const pushes = [
  ['pushTradeRecords', () => tradeBatch()],
  ['pushDailyClose', () => ({ ...buildDailyClose(), batch_id: randomUUID() })],
  ['putStores', () => ({ batch_id: randomUUID(), stores: [buildUsdStore(usdStore)] })],
  ['putProducts', () => ({ ...buildProductBatch(), batch_id: randomUUID() })],
  ['putMapping', () => ({ ...buildMappingBatch(), batch_id: randomUUID() })],
] as const;

/** The table each push writes its content to. */
const contentTable: Record<(typeof pushes)[number][0], string> = {
  pushTradeRecords: 'traderecords',
  pushDailyClose: 'dailycloses',
  putStores: 'stores',
  putProducts: 'products',
  putMapping: 'mappings',
};

const everyCallCases = (operationId: string, body?: () => unknown): Case[] =>
  [
    ['UNAUTHORIZED', () => send(operationId, { key: 'not-a-key-of-anyone' }, body?.(), { params: dayParams })],
    ['PARTNER_INACTIVE', () => send(operationId, inactive, body?.(), { params: dayParams })],
  ].map(([code, run]) => [operationId, code as ErrorCode, run as () => Promise<TestResponse>]);

const cases: Case[] = [
  ...pushes.flatMap(([operationId, body]): Case[] => [
    ...everyCallCases(operationId, body),
    [operationId, 'INVALID_PAYLOAD', () => send(operationId, partner, { ...(body() as object), batch_id: 'not-a-uuid' })],
    [
      operationId,
      'UNSUPPORTED_MEDIA_TYPE',
      () => send(operationId, partner, JSON.stringify(body()), { headers: { 'content-type': 'text/plain' } }),
    ],
    [operationId, 'PAYLOAD_TOO_LARGE', () => send(operationId, partner, `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`)],
    [operationId, 'INTERNAL_ERROR', () => send(operationId, partner, { ...(body() as object), batch_id: failingId(failWith500) })],
    [
      operationId,
      'BATCH_FAILED',
      () => {
        refuseNextWrite(contentTable[operationId], refused.partnerId);
        return send(operationId, refused, body());
      },
    ],
    [operationId, 'SERVICE_UNAVAILABLE', () => send(operationId, partner, { ...(body() as object), batch_id: failingId(failWith503) })],
  ]),
  ['pushTradeRecords', 'BATCH_TOO_LARGE', () => send('pushTradeRecords', partner, tradeBatch({ recordCount: 501 }))],
  [
    'pushTradeRecords',
    'STORE_DAY_TOO_LARGE',
    async () => {
      const businessDate = '2026-02-20';
      const full = await send('pushTradeRecords', crowded, tradeBatch({ businessDate, recordCount: maxTransactionsPerStoreDay }));
      expect(full.status).toBe(202);
      return send('pushTradeRecords', crowded, tradeBatch({ businessDate, recordCount: 1 }));
    },
  ],
  ['pushTradeRecords', 'STORE_NOT_ALLOWED', () => send('pushTradeRecords', partner, tradeBatch({ storeId: 'NOT-MINE' }))],
  [
    'pushTradeRecords',
    'RATE_LIMITED',
    async () => {
      // One push a minute, in windows of the clock's minutes: a second push that lands in the next
      // window is allowed, and a third one then meets the limit.
      let answer = await send('pushTradeRecords', limited, tradeBatch());
      for (let sent = 1; sent < 3 && answer.status !== 429; sent++) answer = await send('pushTradeRecords', limited, tradeBatch());
      return answer;
    },
  ],
  [
    'pushDailyClose',
    'STORE_NOT_ALLOWED',
    () => send('pushDailyClose', partner, { ...buildDailyClose(), batch_id: randomUUID(), store_id: 'NOT-MINE' }),
  ],
  [
    'putStores',
    'BATCH_TOO_LARGE',
    () => send('putStores', partner, { batch_id: randomUUID(), stores: Array.from({ length: 501 }, (_, i) => buildUsdStore(`S-${i}`)) }),
  ],
  ['putStores', 'STORE_NOT_ALLOWED', () => send('putStores', partner, { batch_id: randomUUID(), stores: [buildUsdStore('NOT-MINE')] })],
  [
    'putProducts',
    'BATCH_TOO_LARGE',
    () => {
      const product = buildProductBatch().products[2]!;
      const products = Array.from({ length: 501 }, (_, i) => ({ ...product, product_id: `P-${i}` }));
      return send('putProducts', partner, { batch_id: randomUUID(), products });
    },
  ],
  [
    'putProducts',
    'STORE_NOT_ALLOWED',
    () => {
      const product = { ...buildProductBatch().products[2]!, store_id: 'NOT-MINE' };
      return send('putProducts', partner, { batch_id: randomUUID(), products: [product] });
    },
  ],
  [
    'putMapping',
    'UNKNOWN_STANDARD_CODE',
    () => send('putMapping', partner, { batch_id: randomUUID(), mappings: [{ source_code: '01', standard_code: 'NOT_A_STANDARD_CODE' }] }),
  ],
  ...everyCallCases('getReconciliation'),
  [
    'getReconciliation',
    'INVALID_PAYLOAD',
    () => send('getReconciliation', partner, undefined, { params: { store_id: usdStore, business_date: '2026-02-30' } }),
  ],
  [
    'getReconciliation',
    'STORE_NOT_ALLOWED',
    () => send('getReconciliation', partner, undefined, { params: { store_id: 'NOT-MINE', business_date: '2026-03-01' } }),
  ],
  ...everyCallCases('getMapping'),
  ...everyCallCases('getReferenceTransactionTypes'),
  ...everyCallCases('putWebhook', () => webhookBody),
  ['putWebhook', 'INVALID_PAYLOAD', () => send('putWebhook', partner, { ...webhookBody, event_types: ['day.closed'] })],
  [
    'putWebhook',
    'UNSUPPORTED_MEDIA_TYPE',
    () => send('putWebhook', partner, JSON.stringify(webhookBody), { headers: { 'content-type': 'text/plain' } }),
  ],
  ['putWebhook', 'PAYLOAD_TOO_LARGE', () => send('putWebhook', partner, `{"pad":"${'x'.repeat(5 * 1024 * 1024)}"}`)],
  ...(['getWebhook', 'deleteWebhook', 'rotateWebhookSecret'] as const).flatMap((operationId): Case[] => [
    ...everyCallCases(operationId),
    // The partner of these cases never registers a webhook.
    [operationId, 'WEBHOOK_NOT_FOUND', () => send(operationId, partner)],
  ]),
];

describe('every error path answers as the spec says', () => {
  it.each(cases.map(([operationId, code, run]) => ({ name: `${operationId} ${code}`, operationId, code, run })))(
    '$name',
    async ({ operationId, code, run }) => {
      const response = await run();
      expectSpecAnswer(operationId, response, code);
      record(operationId, response.status);
    },
  );
});

describe('success answers match the spec', () => {
  it('every push answers 202, then 200 for the same batch, with the acknowledgement schema', async () => {
    for (const [operationId, body] of pushes) {
      const sent = body();
      const first = await send(operationId, partner, sent);
      expect(first.status, JSON.stringify(first.body)).toBe(202);
      expectSpecAnswer(operationId, first);
      const again = await send(operationId, partner, sent);
      expect(again.status).toBe(200);
      expectSpecAnswer(operationId, again);
      record(operationId, 202);
      record(operationId, 200);
    }
  });

  it('the reads and the health check answer 200 with their schemas', async () => {
    const reads = [
      ['getReconciliation', partner],
      ['getMapping', partner],
      ['getReferenceTransactionTypes', partner],
      ['health', null],
    ] as const;
    for (const [operationId, caller] of reads) {
      const response = await send(operationId, caller, undefined, { params: { store_id: usdStore, business_date: '2026-03-01' } });
      expect(response.status).toBe(200);
      expectSpecAnswer(operationId, response);
      record(operationId, 200);
    }
  });

  it('the webhook operations answer with their schemas, the secret on registration and rotation only', async () => {
    const owner = await service.createPartner();
    const steps = [
      ['putWebhook', webhookBody, 201],
      ['putWebhook', { ...webhookBody, event_types: ['reconciliation.completed'] }, 200],
      ['getWebhook', undefined, 200],
      ['rotateWebhookSecret', undefined, 200],
      ['deleteWebhook', undefined, 204],
    ] as const;
    for (const [operationId, body, status] of steps) {
      const response = await send(operationId, owner, body);
      expect(response.status, `${operationId}: ${JSON.stringify(response.body)}`).toBe(status);
      expectSpecAnswer(operationId, response);
      expect(Object.hasOwn(response.body ?? {}, 'secret'), operationId).toBe(status === 201 || operationId === 'rotateWebhookSecret');
      record(operationId, status);
    }
  });

  it('the request examples of the spec are accepted by the service', async () => {
    const fresh = await service.createPartner({ stores: ['NYC-0001'] });
    for (const operationId of ['putMapping', 'putStores', 'putProducts', 'pushTradeRecords', 'pushDailyClose'] as const) {
      const response = await send(operationId, fresh, partnerExamples[operationId].request);
      expect(response.status, `${operationId}: ${JSON.stringify(response.body)}`).toBe(202);
      expectSpecAnswer(operationId, response);
      // The spec's answer to the example is the service's, warnings included.
      const example = partnerExamples[operationId].responses[202] as { warnings: unknown };
      const { warnings } = response.body as { warnings: { code: string }[] };
      expect(warnings, operationId).toEqual(example.warnings);
      // The products example carries every product the transaction names (contract §2.4).
      expect(
        warnings.map((warning) => warning.code),
        operationId,
      ).not.toContain('UNKNOWN_PRODUCT');
    }
  });
});

describe('coverage', () => {
  it('drove every status the spec lists, but 500 and 503 of all but the pushes (storage faults) and 503 of health', () => {
    const pushIds = new Set<string>(pushes.map(([operationId]) => operationId));
    for (const [operationId, { operation }] of operations) {
      const listed = Object.keys(operation.responses).filter((status) => {
        if (operationId === 'health') return status !== '503';
        if (!pushIds.has(operationId)) return status !== '500' && status !== '503';
        return true;
      });
      expect([...(driven.get(operationId) ?? [])].sort(), operationId).toEqual(expect.arrayContaining(listed));
    }
  });
});
