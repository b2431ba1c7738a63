/**
 * pos-validate and the service agree: every body below is sent to the running service and checked
 * offline by the kit, and both must give the same status class, error code and problem paths (with
 * the same messages), or, for accepted bodies, the same AMOUNT_MISMATCH warnings.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceMaxBodyBytes } from '../../packages/partner-kit/src/bodyLimit.js';
import { validatePayload, type PushEndpoint } from '../../packages/partner-kit/src/validatePayload.js';
import { partnerExamples } from '../../src/openapi/partnerExamples.js';
import { buildDailyClose, buildMappingBatch, buildProductBatch, buildStoreBatch } from '../fixtures/masterDataFixtures.js';
import { buildTradeRecordBatch } from '../fixtures/tradeRecordFixtures.js';
import { partnerWithStores } from '../support/httpScenario.js';
import { longNamedMappings, mappingsBodyOfSize } from './support/largeMappings.js';
import type { TestResponse } from '../support/responseBodies.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';

let service: TestService;
let partner: TestPartner;
beforeAll(async () => {
  service = await startTestService();
  partner = await partnerWithStores(service);
});
afterAll(async () => {
  await service.stop();
});

const paths: Record<PushEndpoint, [string, string]> = {
  'trade-records': ['POST', 'trade-records'],
  'daily-close': ['POST', 'daily-close'],
  stores: ['PUT', 'stores'],
  products: ['PUT', 'products'],
  mappings: ['PUT', 'mappings/transaction-types'],
};

type Json = Record<string, unknown>;
const clone = <T>(value: T): T => structuredClone(value);
/** A body with a fresh batch_id, changed by `edit`. */
function body(base: unknown, edit: (draft: Json) => void = () => undefined): Json {
  const draft = clone(base) as Json;
  draft.batch_id = randomUUID();
  edit(draft);
  return draft;
}
const records = (draft: Json) => draft.trade_records as Json[];
const first = (draft: Json) => records(draft)[0]!;

const trade = buildTradeRecordBatch({ recordCount: 3 });
const cases: [name: string, endpoint: PushEndpoint, body: string | Json][] = [
  ['contract example: trade-records', 'trade-records', body(partnerExamples.pushTradeRecords.request)],
  ['contract example: daily-close', 'daily-close', body(partnerExamples.pushDailyClose.request)],
  ['contract example: stores', 'stores', body(partnerExamples.putStores.request)],
  ['contract example: products', 'products', body(partnerExamples.putProducts.request)],
  ['contract example: mappings', 'mappings', body(partnerExamples.putMapping.request)],
  ['fixture day: trade-records', 'trade-records', body(trade)],
  ['fixture: daily-close', 'daily-close', body(buildDailyClose())],
  ['fixture: stores', 'stores', body(buildStoreBatch())],
  ['fixture: products', 'products', body(buildProductBatch())],
  ['fixture: mappings', 'mappings', body(buildMappingBatch())],
  ['not JSON', 'trade-records', '{"batch_id": '],
  ['duplicate key', 'stores', '{"batch_id":"a","batch_id":"b","stores":[]}'],
  ['top level not an object', 'mappings', '[1,2]'],
  ['missing fields', 'trade-records', body(trade, (d) => delete d.store_id)],
  ['unknown field', 'daily-close', body(buildDailyClose(), (d) => (d.extra = 1))],
  ['wrong decimal places', 'trade-records', body(trade, (d) => (first(d).tip_amount = '2.0'))],
  ['amount mismatch (accepted with a warning)', 'trade-records', body(trade, (d) => (first(d).total_amount = '1.00'))],
  ['record of another store', 'trade-records', body(trade, (d) => (first(d).store_id = 'TYO-0001'))],
  ['record of another day', 'trade-records', body(trade, (d) => (first(d).business_date = '2026-03-02'))],
  ['duplicate trade_record_id', 'trade-records', body(trade, (d) => (records(d)[1]!.trade_record_id = first(d).trade_record_id as string))],
  ['currency other than the store', 'trade-records', body(trade, (d) => (first(d).currency = 'EUR'))],
  ['negative SALE payment', 'trade-records', body(trade, (d) => ((first(d).payments as Json[])[0]!.amount = '-1.00'))],
  ['card number in free text', 'trade-records', body(trade, (d) => (first(d).employee_id = '4111 1111 1111 1111'))],
  ['bad date', 'daily-close', body(buildDailyClose(), (d) => (d.business_date = '2026-02-30'))],
  ['daily close in another currency', 'daily-close', body(buildDailyClose(), (d) => (d.currency = 'JPY'))],
  ['bad time zone', 'stores', body(buildStoreBatch(), (d) => ((d.stores as Json[])[0]!.time_zone = 'Mars/Olympus'))],
  ['time zone in another case', 'stores', body(buildStoreBatch(), (d) => ((d.stores as Json[])[0]!.time_zone = 'asia/tokyo'))],
  ['bad country', 'stores', body(buildStoreBatch(), (d) => ((d.stores as Json[])[0]!.country_code = 'XX'))],
  ['duplicate source_code', 'mappings', body(buildMappingBatch(), (d) => ((d.mappings as Json[])[1]!.source_code = '01'))],
  ['unknown standard code', 'mappings', body(buildMappingBatch(), (d) => ((d.mappings as Json[])[0]!.standard_code = 'GIFT'))],
  ['too many records', 'trade-records', body(buildTradeRecordBatch({ recordCount: 501 }))],
  ['empty records', 'trade-records', body(trade, (d) => (d.trade_records = []))],
];

interface Comparable {
  readonly statusClass: number;
  readonly code?: string;
  readonly details?: readonly { path: string; message: string }[];
  readonly warnings?: readonly { code: string; path: string }[];
}

function fromService(response: TestResponse): Comparable {
  const status = Math.floor(response.status / 100);
  const body = response.body as {
    error?: { code: string; details?: { path: string; message: string }[] };
    warnings?: { code: string; path: string }[];
  };
  if (body.error) return { statusClass: status, code: body.error.code, details: body.error.details ?? [] };
  return {
    statusClass: status,
    warnings: (body.warnings ?? []).filter((w) => w.code === 'AMOUNT_MISMATCH').map(({ code, path }) => ({ code, path })),
  };
}

describe('pos-validate gives the answer the service gives', () => {
  it.each(cases)('%s', async (_name, endpoint, sent) => {
    const text = typeof sent === 'string' ? sent : JSON.stringify(sent);
    const [method, path] = paths[endpoint];
    const response = await service.call(partner, method, path, text);
    const offline = validatePayload(endpoint, Buffer.from(text), { storeCurrency: 'USD' });
    const kit: Comparable = offline.ok
      ? { statusClass: 2, warnings: offline.warnings.map(({ code, path }) => ({ code, path })) }
      : { statusClass: Math.floor(offline.status / 100), code: offline.body.error.code, details: offline.body.error.details ?? [] };
    expect(kit).toEqual(fromService(response));
  });
});

describe('validatePayload and the body limit', () => {
  it('refuses a body a byte over the service’s limit with 413 PAYLOAD_TOO_LARGE, naming both sizes, and takes one at the limit, as the service does', async () => {
    const atLimit = mappingsBodyOfSize(serviceMaxBodyBytes);
    const over = mappingsBodyOfSize(serviceMaxBodyBytes + 1);
    expect([atLimit.byteLength, over.byteLength]).toEqual([serviceMaxBodyBytes, serviceMaxBodyBytes + 1]);

    expect(validatePayload('mappings', atLimit)).toMatchObject({
      ok: true,
      recordCount: (JSON.parse(atLimit.toString()) as { mappings: unknown[] }).mappings.length,
    });
    expect(validatePayload('mappings', over)).toEqual({
      ok: false,
      status: 413,
      body: {
        error: {
          code: 'PAYLOAD_TOO_LARGE',
          message: `The request body is ${serviceMaxBodyBytes + 1} bytes, more than the limit of ${serviceMaxBodyBytes} bytes.`,
          request_id: 'offline',
        },
      },
    });

    // The kit's limit is the running service's: the same two bodies, sent, get the same answers.
    expect((await service.call(partner, 'PUT', 'mappings/transaction-types', over)).status).toBe(413);
    expect((await service.call(partner, 'PUT', 'mappings/transaction-types', atLimit)).status).toBe(202);
  });
});

describe('validatePayload given what a JavaScript caller may pass', () => {
  it('takes the JSON text as a string, measured and read in the UTF-8 bytes fetch sends for it, as the service answers it', async () => {
    const accepted = JSON.stringify(body(trade));
    expect(validatePayload('trade-records', accepted, { storeCurrency: 'USD' })).toEqual(
      validatePayload('trade-records', Buffer.from(accepted), { storeCurrency: 'USD' }),
    );
    expect(validatePayload('trade-records', accepted, { storeCurrency: 'USD' })).toMatchObject({ ok: true, recordCount: 3 });
    expect((await service.call(partner, 'POST', 'trade-records', accepted)).status).toBe(202);

    // Names of a three-byte character: under the limit in characters, over it in the bytes sent.
    const text = JSON.stringify({ batch_id: randomUUID(), mappings: longNamedMappings(10_000, 200, '売') });
    const size = Buffer.byteLength(text);
    expect(text.length).toBeLessThan(serviceMaxBodyBytes);
    expect(size).toBeGreaterThan(serviceMaxBodyBytes);
    expect(validatePayload('mappings', text)).toEqual({
      ok: false,
      status: 413,
      body: {
        error: {
          code: 'PAYLOAD_TOO_LARGE',
          message: `The request body is ${size} bytes, more than the limit of ${serviceMaxBodyBytes} bytes.`,
          request_id: 'offline',
        },
      },
    });
    expect((await service.call(partner, 'PUT', 'mappings/transaction-types', text)).status).toBe(413);
  });

  it('throws a TypeError for a body that is neither bytes nor JSON text, rather than answer for it', () => {
    const parsed = body(trade);
    for (const [given, named] of [
      [parsed, 'an object (pass JSON.stringify of it'],
      [undefined, 'undefined'],
      [null, 'null'],
      [42, 'a number'],
      [new ArrayBuffer(2), 'an ArrayBuffer'],
    ] as const) {
      expect(() => validatePayload('trade-records', given as unknown as string)).toThrow(TypeError);
      expect(() => validatePayload('trade-records', given as unknown as string)).toThrow(
        `validatePayload takes the body as sent: its bytes (a Uint8Array or Buffer) or its JSON text (a string), not ${named}`,
      );
    }
  });

  it('throws a RangeError naming the endpoints for an endpoint it does not know', () => {
    const expected = 'expected one of trade-records, daily-close, stores, products, mappings.';
    for (const name of ['trade-record', 'toString', '__proto__', 'Trade-Records']) {
      expect(() => validatePayload(name as PushEndpoint, Buffer.from('{}'))).toThrow(RangeError);
      expect(() => validatePayload(name as PushEndpoint, Buffer.from('{}'))).toThrow(`Unknown endpoint "${name}": ${expected}`);
    }
    expect(() => validatePayload(undefined as unknown as PushEndpoint, Buffer.from('{}'))).toThrow(
      `Unknown endpoint undefined: ${expected}`,
    );
  });
});
