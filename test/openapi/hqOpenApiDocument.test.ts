/**
 * The HQ API's OpenAPI document: checked in up to date, describing every HQ route of the function
 * table, and true of the running service. Every operation is driven through real HTTP on the local
 * host (with Azurite) to its success and to each error it lists but 500/503 (storage faults), and
 * every answer must be a status the document lists for the operation, with a body valid against
 * the document's schema for that status.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { PipelineRequest } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findProjectRoot } from '../../src/config/findProjectRoot.js';
import { errorCatalogue, type ErrorCode } from '../../src/errors/errorCatalogue.js';
import { functionTable } from '../../src/functions/functionTable.js';
import { hqFunctions } from '../../src/hq/http/hqFunctions.js';
import { hqOpenApiDocument } from '../../src/openapi/hqApi.js';
import { hqOpenApiFile, renderHqOpenApiFile } from '../../src/openapi/writeDocs.js';
import { WebhookDeadLetterRepository } from '../../src/storage/WebhookDeadLetterRepository.js';
import { buildDailyClose } from '../fixtures/masterDataFixtures.js';
import { partnerWithStores, reconciled, tradeBatch, usdStore } from '../support/httpScenario.js';
import type { TestResponse } from '../support/responseBodies.js';
import { startTestService, type TestOperator, type TestPartner, type TestService } from '../support/startTestService.js';
import { FaultPolicy, isTableTransaction } from '../reliability/support/faultPolicy.js';
import { pointerToken, specValidator } from './specAjv.js';

interface Operation {
  operationId: string;
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: unknown;
  responses: Record<string, { headers?: Record<string, { required?: boolean }>; content?: Record<string, { schema: unknown }> }>;
}
interface OpenApiDocument {
  servers: { url: string }[];
  paths: Record<string, Record<string, Operation>>;
}

const root = findProjectRoot();
const document = JSON.parse(renderHqOpenApiFile()) as OpenApiDocument;
const schemaAt = specValidator(document);
const operations = new Map(
  Object.entries(document.paths).flatMap(([route, item]) =>
    Object.entries(item).map(([method, operation]) => [operation.operationId, { route, method, operation }] as const),
  ),
);

describe('the HQ API document', () => {
  it('is the one checked in as docs/hq-openapi.json (npm run build writes it)', () => {
    expect(readFileSync(path.join(root, hqOpenApiFile), 'utf8')).toBe(renderHqOpenApiFile());
  });

  it('describes every HQ route of the function table at its path, with its method', () => {
    const registered = functionTable.filter((fn) => fn.trigger === 'http' && fn.route.startsWith('hq/v1/'));
    expect(registered.length).toBeGreaterThanOrEqual(17);
    expect([...operations.keys()].sort()).toEqual(registered.map((fn) => fn.name).sort());
    expect(document.servers[0]?.url).toBe('/hq/v1');
    for (const fn of registered) {
      if (fn.trigger !== 'http') continue;
      const found = operations.get(fn.name);
      expect(found?.method, fn.name).toBe(fn.methods[0]?.toLowerCase());
      expect(`hq/v1${found?.route ?? ''}`, fn.name).toBe(fn.route);
    }
  });

  it('lists 403 ADMIN_ROLE_REQUIRED on exactly the admin actions, and the body errors with them', () => {
    for (const fn of hqFunctions) {
      const responses = operations.get(fn.name)?.operation.responses ?? {};
      const forbidden = JSON.stringify(responses['403']);
      expect(forbidden.includes('ADMIN_ROLE_REQUIRED'), fn.name).toBe(fn.access === 'admin');
      expect(forbidden, fn.name).toContain('OPERATOR_KEY_REQUIRED');
      expect(responses['415'] !== undefined && responses['413'] !== undefined, fn.name).toBe(fn.access === 'admin');
    }
  });

  it('takes the query parameters from the schemas the endpoints check', () => {
    const grid = operations.get('hqStoreDays')!.operation.parameters ?? [];
    expect(grid.filter((p) => p.in === 'query' && p.required).map((p) => p.name)).toEqual(['from', 'to']);
    expect(grid.map((p) => p.name)).toEqual(expect.arrayContaining(['partner_id', 'status', 'overdue', 'limit', 'continuation']));
    const day = operations.get('hqStoreDay')!.operation.parameters ?? [];
    expect(day.filter((p) => p.in === 'path').map((p) => p.name)).toEqual(['partner_id', 'store_id', 'business_date']);
  });

  it('refuses an HQ route that has no description', () => {
    const extra = { ...hqFunctions[0]!, name: 'hqSomethingNew', route: 'hq/v1/something-new' };
    expect(() => hqOpenApiDocument([...hqFunctions, extra])).toThrow(/hqSomethingNew/);
  });

  it('every error example validates against the schema of its status', () => {
    let checked = 0;
    for (const [route, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const media = response.content?.['application/json'] as { examples?: Record<string, { value: unknown }> } | undefined;
          for (const [code, example] of Object.entries(media?.examples ?? {})) {
            expect(String(errorCatalogue[code as ErrorCode].status)).toBe(status);
            const validate = schemaAt(`/paths/${pointerToken(route)}/${method}/responses/${status}/content/application~1json/schema`);
            expect(validate(example.value), `${operation.operationId} ${status} ${code}`).toBe(true);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});

const policy = new FaultPolicy();

let service: TestService;
let viewer: TestOperator;
let admin: TestOperator;
let mapped: TestPartner;
let unmapped: TestPartner;
let spare: TestPartner;
const businessDate = '2026-03-01';

beforeAll(async () => {
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '0' }, services: { policy } });
  viewer = await service.createOperator('viewer');
  admin = await service.createOperator('admin');
  mapped = await partnerWithStores(service, { mapping: true });
  unmapped = await partnerWithStores(service);
  spare = await service.createPartner({ stores: [usdStore] });
  // A batch storage refuses after validation: FAILED, listed by GET /batches?state=failed.
  const failing = tradeBatch({ businessDate: '2026-03-05' });
  const refused = failing.trade_records[0]!.trade_record_id;
  policy.answerWith(
    (request: PipelineRequest) => isTableTransaction(request) && typeof request.body === 'string' && request.body.includes(`"${refused}"`),
    400,
    'EntityTooLarge',
  );
  expect((await service.call(mapped, 'POST', 'trade-records', failing)).status).toBe(500);
  for (const partner of [mapped, unmapped]) {
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    expect((await service.call(partner, 'POST', 'daily-close', { ...buildDailyClose('USD'), batch_id: randomUUID() })).status).toBe(202);
    // Without a mapping the day does not match; it reconciles all the same, its codes held back.
    const result = await reconciled(service, partner, usdStore, businessDate);
    expect(result.status, partner === mapped ? 'mapped' : 'unmapped').toBe(partner === mapped ? 'MATCHED' : 'MISMATCHED');
  }
  // Two deliveries given up: a list of one leaves the older out.
  const deadLetters = new WebhookDeadLetterRepository(service.services.storage.tables.webhookDeadLetters);
  for (const day of ['02', '03']) {
    await deadLetters.add({
      partnerId: mapped.partnerId,
      eventId: `evt_${day}`,
      eventType: 'reconciliation.completed',
      targetOrigin: 'https://hooks.example.com',
      attempts: 8,
      lastErrorClass: 'HTTP_ERROR',
      lastStatus: 503,
      createdAt: `2026-03-${day}T00:00:00.000Z`,
      deadLetteredAt: `2026-03-${day}T01:00:00.000Z`,
    });
  }
});
afterAll(async () => {
  await service.stop();
});

interface Request {
  readonly params?: Record<string, string>;
  readonly query?: string;
  readonly body?: unknown;
}

/** A request each operation answers 200, on the data of beforeAll. */
const valid = (): Record<string, Request> => ({
  hqWhoami: {},
  hqStoreDays: { query: `from=${businessDate}&to=2026-03-02&partner_id=${mapped.partnerId}` },
  hqStoreDay: { params: { partner_id: mapped.partnerId, store_id: usdStore, business_date: businessDate } },
  hqBatches: { query: `state=failed&partner_id=${mapped.partnerId}` },
  hqSales: { query: `from=${businessDate}&to=${businessDate}&group_by=store,standard_type,day&partner_id=${mapped.partnerId}` },
  hqUnmapped: { query: `partner_id=${unmapped.partnerId}` },
  hqWebhookFailures: { query: `partner_id=${mapped.partnerId}&limit=1` },
  hqPartners: { query: 'limit=200' },
  hqPartner: { params: { partner_id: mapped.partnerId } },
  hqPartnerStores: { params: { partner_id: mapped.partnerId } },
  hqPartnerKeys: { params: { partner_id: mapped.partnerId } },
  hqPartnerPaymentDirections: { params: { partner_id: mapped.partnerId } },
  hqRegisterStores: { params: { partner_id: spare.partnerId }, body: { store_ids: ['LON-0001', usdStore] } },
  hqRetireStore: { params: { partner_id: spare.partnerId, store_id: usdStore } },
  hqReactivateStore: { params: { partner_id: spare.partnerId, store_id: usdStore }, body: {} },
  hqSetPaymentDirection: { params: { partner_id: spare.partnerId }, body: { payment_type: 'GIFT_CARD', direction: -1 } },
  hqDeactivatePartner: { params: { partner_id: spare.partnerId } },
  hqActivatePartner: { params: { partner_id: spare.partnerId }, body: {} },
  hqRevokePartnerKey: { params: { partner_id: spare.partnerId, key_id: spare.keyId } },
  hqOpenApi: {},
});

/** Sends a request to an operation of the document, at the document's path for it. */
function send(
  operationId: string,
  caller: { key: string } | null,
  request: Request,
  headers?: Record<string, string>,
): Promise<TestResponse> {
  const op = operations.get(operationId);
  if (op === undefined) throw new Error(`No operation ${operationId} in the document`);
  const filled = op.route.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(request.params?.[name] ?? ''));
  const url = `${document.servers[0]!.url}${filled}${request.query === undefined ? '' : `?${request.query}`}`;
  return service.callHost(caller, op.method.toUpperCase(), url, request.body, headers);
}

const driven = new Map<string, Set<string>>();

/** Checks an answer against the document: a listed status, a body valid for it, the code expected. */
function expectDocumented(operationId: string, response: TestResponse, code?: ErrorCode): void {
  const op = operations.get(operationId)!;
  const status = String(response.status);
  expect(
    op.operation.responses[status],
    `${operationId} answered ${status}, not in the document: ${JSON.stringify(response.body)}`,
  ).toBeDefined();
  if (code !== undefined) {
    expect(response.status, `${operationId} ${code}: ${JSON.stringify(response.body)}`).toBe(errorCatalogue[code].status);
    expect((response.body as { error?: { code?: string } }).error?.code).toBe(code);
  }
  // The host refuses a request without a key itself, without a body (as in Azure).
  if (response.body !== undefined) {
    const validate = schemaAt(`/paths/${pointerToken(op.route)}/${op.method}/responses/${status}/content/application~1json/schema`);
    expect(validate(response.body), `${operationId} ${status}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
  const set = driven.get(operationId) ?? new Set<string>();
  set.add(status);
  driven.set(operationId, set);
}

const ids = [...operations.keys()];
const adminIds = hqFunctions.filter((fn) => fn.access === 'admin').map((fn) => fn.name);
const unknownPartner = `nobody-${randomUUID()}`;

describe('real answers of the HQ API match the document', () => {
  it.each(ids)('%s answers 200 with its schema, to a body valid against its request schema', async (operationId) => {
    const request = valid()[operationId]!;
    const { route, method, operation } = operations.get(operationId)!;
    expect(operation.requestBody !== undefined, operationId).toBe(adminIds.includes(operationId));
    if (request.body !== undefined) {
      const validate = schemaAt(`/paths/${pointerToken(route)}/${method}/requestBody/content/application~1json/schema`);
      expect(validate(request.body), JSON.stringify(validate.errors)).toBe(true);
    }
    const response = await send(operationId, admin, request);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expectDocumented(operationId, response);
  });

  it('the list routes answered with items, so their item schemas were checked', async () => {
    const listRoutes = [
      'hqStoreDays',
      'hqBatches',
      'hqSales',
      'hqUnmapped',
      'hqWebhookFailures',
      'hqPartners',
      'hqPartnerStores',
      'hqPartnerKeys',
    ];
    for (const operationId of listRoutes) {
      const response = await send(operationId, viewer, valid()[operationId]!);
      expect((response.body as { items: unknown[] }).items.length, operationId).toBeGreaterThan(0);
    }
    const day = await send('hqStoreDay', viewer, valid().hqStoreDay!);
    expect(day.body).toMatchObject({ status: 'MATCHED', expected: { trade_record_count: 3 }, actual: { trade_record_count: 3 } });
    const served = await send('hqOpenApi', viewer, {});
    expect(served.body).toEqual(document);
  });

  // A key the host does not hold (none, unknown, revoked) is refused by the host before the service
  // runs, without a body; the document's 401 says so, and its body is for the rare key the host
  // still holds for a moment after the service stopped taking it.
  it.each(ids)('%s: 401 without a key, from the host without a body', async (operationId) => {
    const response = await send(operationId, null, valid()[operationId]!);
    expect(response.status).toBe(401);
    expect(response.body).toBeUndefined();
    expectDocumented(operationId, response);
  });

  it.each(ids)('%s: 403 OPERATOR_KEY_REQUIRED for a partner key, 400 INVALID_QUERY for an unknown parameter', async (operationId) => {
    const request = valid()[operationId]!;
    expectDocumented(operationId, await send(operationId, mapped, request), 'OPERATOR_KEY_REQUIRED');
    const query = request.query === undefined ? 'bogus=1' : `${request.query}&bogus=1`;
    expectDocumented(operationId, await send(operationId, admin, { ...request, query }), 'INVALID_QUERY');
  });

  it.each(ids)('%s checks every query parameter the document lists, and takes the ones its request sends', async (operationId) => {
    const request = valid()[operationId]!;
    const documented = (operations.get(operationId)!.operation.parameters ?? []).filter((p) => p.in === 'query');
    const sent = [...new URLSearchParams(request.query ?? '').keys()];
    expect(documented.map((p) => p.name)).toEqual(expect.arrayContaining(sent));
    expect(sent).toEqual(expect.arrayContaining(documented.filter((p) => p.required).map((p) => p.name)));
    for (const parameter of documented) {
      const query = new URLSearchParams(request.query ?? '');
      // A value no parameter's schema takes ('' would be coerced to false for a boolean).
      query.set(parameter.name, parameter.name === 'overdue' ? 'maybe' : '');
      const response = await send(operationId, admin, { ...request, query: query.toString() });
      expectDocumented(operationId, response, 'INVALID_QUERY');
      expect(
        (response.body as { error: { details?: { path: string }[] } }).error.details?.map((d) => d.path),
        parameter.name,
      ).toContain(`/${parameter.name}`);
    }
  });

  it.each(adminIds)('%s: 403 for a viewer, 415, 413 and 400 INVALID_PAYLOAD for its body', async (operationId) => {
    const request = valid()[operationId]!;
    expectDocumented(operationId, await send(operationId, viewer, request), 'ADMIN_ROLE_REQUIRED');
    const asText = await send(operationId, admin, { ...request, body: '{}' }, { 'content-type': 'text/plain' });
    expectDocumented(operationId, asText, 'UNSUPPORTED_MEDIA_TYPE');
    expectDocumented(
      operationId,
      await send(operationId, admin, { ...request, body: `{"pad":"${'x'.repeat(20_000)}"}` }),
      'PAYLOAD_TOO_LARGE',
    );
    expectDocumented(operationId, await send(operationId, admin, { ...request, body: { bogus: 1 } }), 'INVALID_PAYLOAD');
  });

  it('answers 404 with the stable code of what is missing', async () => {
    const partnerless = ['hqStoreDay', 'hqPartner', 'hqPartnerStores', 'hqPartnerKeys', 'hqPartnerPaymentDirections', ...adminIds];
    for (const operationId of partnerless) {
      const request = valid()[operationId]!;
      const response = await send(operationId, admin, { ...request, params: { ...request.params, partner_id: unknownPartner } });
      expectDocumented(operationId, response, 'PARTNER_NOT_FOUND');
    }
    const grid = await send('hqStoreDays', admin, { query: `from=${businessDate}&to=${businessDate}&partner_id=${unknownPartner}` });
    expectDocumented('hqStoreDays', grid, 'PARTNER_NOT_FOUND');
    // A list filtered by a partner that does not exist: 404, not an empty list.
    for (const operationId of ['hqBatches', 'hqSales', 'hqUnmapped', 'hqWebhookFailures']) {
      const query = (valid()[operationId]!.query ?? '').replace(/partner_id=[^&]*/, `partner_id=${unknownPartner}`);
      expectDocumented(operationId, await send(operationId, admin, { query }), 'PARTNER_NOT_FOUND');
    }
    for (const operationId of ['hqStoreDay', 'hqRetireStore', 'hqReactivateStore']) {
      const request = valid()[operationId]!;
      const store = await send(operationId, admin, { ...request, params: { ...request.params, store_id: 'LON-9999' } });
      expectDocumented(operationId, store, 'STORE_NOT_FOUND');
    }
    const key = await send('hqRevokePartnerKey', admin, { params: { partner_id: spare.partnerId, key_id: 'key-00000000' } });
    expectDocumented('hqRevokePartnerKey', key, 'KEY_NOT_FOUND');
  });

  it('drove every status the document lists but 500 and 503 (storage faults)', () => {
    for (const [operationId, { operation }] of operations) {
      const listed = Object.keys(operation.responses).filter((status) => status !== '500' && status !== '503');
      expect([...(driven.get(operationId) ?? [])].sort(), operationId).toEqual(listed.sort());
    }
  });
});
