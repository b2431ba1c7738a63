import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { findProjectRoot } from '../../src/config/findProjectRoot.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeRecordBatch } from '../../src/domain/model/payloads.js';
import { errorCatalogue } from '../../src/errors/errorCatalogue.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { buildDayBatch, businessDateOf, preparePartner } from './support/dayScenario.js';
import { seededRandom } from './support/random.js';
import { withoutValueAt } from '../support/jsonEdits.js';
import { errorCodeOf, errorOf, type TestResponse } from '../support/responseBodies.js';

const marker = 'ZQXMARKER';
let service: TestService;
let partner: TestPartner;
const random = seededRandom(88);

beforeAll(async () => {
  service = await startTestService();
  partner = await preparePartner(service, random);
});
afterAll(async () => {
  await service.stop();
});

interface Case {
  readonly name: string;
  readonly body: string | Uint8Array;
  readonly path?: string;
  readonly method?: string;
  readonly contentType?: string | null;
  readonly code: keyof typeof errorCatalogue;
  /** Text besides the marker that the answer must not carry. */
  readonly secret?: string;
}

function valid(tag: string): TradeRecordBatch {
  return buildDayBatch(random, 'NYC-0001', businessDateOf(4000), 1, tag);
}
const text = (value: unknown): string => JSON.stringify(value);
const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

/** Replaces `"<field>":<json>` in the record text with raw JSON text (for numbers JSON.stringify cannot write). */
function withRaw(field: string, raw: string, where: 'top' | 'record' | 'item' = 'record'): string {
  const body = text(valid(`raw-${field}`));
  // Spliced into the text: assigning a key such as __proto__ on an object would not create it.
  const anchor = where === 'top' ? '{' : where === 'record' ? '"trade_record_id":' : '"line_no":';
  const at = body.indexOf(anchor) + (where === 'top' ? 1 : 0);
  return `${body.slice(0, at)}${JSON.stringify(field)}:${raw},${body.slice(at)}`.replace(/,}/g, '}');
}

const tradeSchema = JSON.parse(readFileSync(path.join(findProjectRoot(), 'schemas', 'trade-records.schema.json'), 'utf8')) as {
  $defs: Record<'tradeRecord' | 'tradeItem' | 'payment', { required: string[] }>;
};
const requiredRecordFields = tradeSchema.$defs.tradeRecord.required;

function buildCorpus(): Case[] {
  const cases: Case[] = [];
  const add = (name: string, body: string | Uint8Array, code: Case['code'] = 'INVALID_PAYLOAD', extra: Partial<Case> = {}) =>
    cases.push({ name, body, code, ...extra });

  // Prototype keys at every level.
  for (const key of ['__proto__', 'constructor', 'prototype']) {
    for (const where of ['top', 'record', 'item'] as const) {
      add(`${key} key at ${where}`, withRaw(key, `{"polluted":"${marker}","prototype":{"polluted":"${marker}"}}`, where));
    }
    add(`${key} key inside an object value`, text(valid('p')).replace('"items":[', `"x":{"${key}":{"polluted":1}},"items":[`));
  }
  // Nesting.
  for (const depth of [33, 100, 1000, 10_000, 100_000]) {
    add(`arrays nested ${depth} deep`, withRaw('member_id', `${'['.repeat(depth)}${']'.repeat(depth)}`));
    add(`objects nested ${depth} deep`, withRaw('member_id', `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));
  }
  add('unclosed nesting 100000 deep', withRaw('member_id', '['.repeat(100_000)));
  // Numbers.
  for (const field of ['version', 'guest_count']) {
    for (const raw of [
      '1e400',
      '-1e400',
      '9007199254740993',
      '-9007199254740993',
      '1.5',
      '-1',
      '0.0000001',
      '123456789012345678901234567890',
    ]) {
      add(`${field} = ${raw}`, withRaw(field, raw));
    }
  }
  for (const raw of ['1e400', '9007199254740993', '0', '-5', '"1"']) add(`batch_seq = ${raw}`, withRaw('batch_seq', raw, 'top'));
  for (const raw of ['1e400', '9007199254740993', '2.5', '"1"']) add(`line_no = ${raw}`, withRaw('line_no', raw, 'item'));
  for (const raw of ['01', '1.', '.5', '+1', '0x10', 'NaN', 'Infinity', '-Infinity', '1e', '--1'])
    add(`malformed number ${raw}`, withRaw('guest_count', raw));
  // Decimal strings.
  for (const raw of ['"1.001"', '"1"', '"1e2"', '" 1.00"', '"+1.00"', '"NaN"', '"1,00"', `"${marker}"`, '1.00', 'null']) {
    add(`total_amount = ${raw}`, withRaw('total_amount', raw));
  }
  // Duplicate keys.
  add('duplicate batch_id', text(valid('d')).replace('{', `{"batch_id":"${marker}",`));
  add('duplicate trade_record_id', text(valid('d')).replace('"version":', `"trade_record_id":"${marker}","version":`));
  add('duplicate key in an item', text(valid('d')).replace('"line_no":1,', '"line_no":1,"line_no":2,'));
  add('duplicate key, escaped spelling', text(valid('d')).replace('{', '{"batch\\u005fid":"x",'));
  add('duplicate key among 40 keys', withRaw('extra', `{${Array.from({ length: 40 }, (_, i) => `"k${i}":1`).join(',')},"k7":2}`));
  // Encodings.
  const base = text(valid('enc'));
  const cut = base.indexOf('"member_id":"') + 13;
  const inString = (raw: number[]) => bytes(base.slice(0, cut), raw, base.slice(cut));
  add('invalid UTF-8 byte 0xff', inString([0xff]));
  add('overlong UTF-8 encoding', inString([0xc0, 0x80]));
  add('truncated UTF-8 sequence', inString([0xe2, 0x82]));
  add('UTF-8 encoded surrogate', inString([0xed, 0xa0, 0x80]));
  add('UTF-8 continuation byte alone', inString([0x80]));
  add('code point above U+10FFFF', inString([0xf4, 0x90, 0x80, 0x80]));
  for (const raw of ['\\ud800', '\\udc00', '\\ud800\\u0041', '\\udbff\\udbff', '\\ud800x'])
    add(`lone surrogate ${raw}`, withRaw('member_id', `"${raw}${marker}"`));
  add('byte order mark', bytes([0xef, 0xbb, 0xbf], base));
  add('UTF-16 body', Buffer.from(base, 'utf16le'));
  add('raw control character in a string', withRaw('member_id', `"a\u0001${marker}"`));
  add('NUL byte in a string', withRaw('member_id', `"a\u0000${marker}"`));
  add('invalid escape', withRaw('member_id', `"\\x41${marker}"`));
  // Not JSON, or not an object.
  for (const [name, body] of [
    ['empty body', ''],
    ['whitespace only', '   \n'],
    ['array', '[]'],
    ['string', `"${marker}"`],
    ['number', '42'],
    ['null', 'null'],
    ['true', 'true'],
    ['truncated object', base.slice(0, base.length - 5)],
    ['trailing garbage', `${base}x`],
    ['two objects', `${base}${base}`],
    ['comment', `/* ${marker} */${base}`],
    ['single quotes', base.replace(/"/g, "'")],
    ['trailing comma', base.replace(/}$/, ',}')],
    ['unquoted key', `{batch_id:"${marker}"}`],
    ['NaN literal', withRaw('guest_count', 'NaN')],
    ['undefined literal', withRaw('guest_count', 'undefined')],
    ['unterminated string', `{"batch_id":"${marker}`],
    ['lone brace', '{'],
    ['lone bracket', '['],
    ['colon only', ':'],
  ] as const)
    add(name, body);
  // Schema: wrong types and values at the top.
  const top: [string, string][] = [
    ['batch_id', '123'],
    ['batch_id', 'null'],
    ['batch_id', '[]'],
    ['batch_id', '{}'],
    ['batch_id', `"${marker}"`],
    ['batch_id', '""'],
    ['store_id', '1'],
    ['store_id', 'null'],
    ['store_id', '""'],
    ['business_date', '"2026-02-30"'],
    ['business_date', `"${marker}"`],
    ['business_date', '"2026-3-1"'],
    ['trade_records', '{}'],
    ['trade_records', 'null'],
    ['trade_records', '[]'],
    ['trade_records', '[1]'],
    ['trade_records', '[null]'],
    ['trade_records', `["${marker}"]`],
  ];
  for (const [field, raw] of top) add(`${field} = ${raw.slice(0, 20)}`, withRaw(field, raw, 'top'));
  // Field names appear in problem paths (they say where the problem is), but never a card number.
  for (const card of ['4111111111111111', '5555-5555-5555-4444', '378282246310005']) {
    add(`card number as a field name ${card}`, withRaw(card, '1', 'top'), 'INVALID_PAYLOAD', { secret: card });
    add(`card number as a nested field name ${card}`, withRaw('x', `{"${card}":1}`), 'INVALID_PAYLOAD', { secret: card });
    add(`card number as a duplicate key ${card}`, withRaw('x', `{"${card}":1,"${card}":2}`), 'INVALID_PAYLOAD', { secret: card });
  }
  add('unknown record field', withRaw('x_extra', `"${marker}"`));
  // Every required field of a record, removed one at a time.
  for (const field of requiredRecordFields) {
    add(`record without ${field}`, text(withoutValueAt(valid(`miss-${field}`), `/trade_records/0/${field}`)));
  }
  for (const field of tradeSchema.$defs.tradeItem.required) {
    add(`item without ${field}`, text(withoutValueAt(valid(`item-${field}`), `/trade_records/0/items/0/${field}`)));
  }
  for (const field of tradeSchema.$defs.payment.required) {
    add(`payment without ${field}`, text(withoutValueAt(valid(`pay-${field}`), `/trade_records/0/payments/0/${field}`)));
  }
  for (const field of Object.keys(valid('t'))) {
    add(`batch without ${field}`, text(withoutValueAt(valid(`top-${field}`), `/${field}`)));
  }
  // Record and batch disagree.
  add('record of another store', text({ ...valid('s'), trade_records: [{ ...valid('s').trade_records[0], store_id: 'NYC-0002' }] }));
  add('record of another date', text({ ...valid('s'), trade_records: [{ ...valid('s').trade_records[0], business_date: '2026-01-02' }] }));
  // Content types.
  for (const [path, method] of [
    ['trade-records', 'POST'],
    ['daily-close', 'POST'],
    ['stores', 'PUT'],
    ['products', 'PUT'],
    ['mappings/transaction-types', 'PUT'],
  ] as const) {
    for (const contentType of [
      null,
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'application/jsonx',
      'multipart/form-data; boundary=x',
      'application/json-patch+json',
    ]) {
      add(`${method} ${path} with Content-Type ${contentType ?? '(none)'}`, base, 'UNSUPPORTED_MEDIA_TYPE', { path, method, contentType });
    }
  }
  // Size and counts.
  add('5 MB + 1 byte', bytes(base.slice(0, -1), ',"pad":"', 'x'.repeat(5 * 1024 * 1024 - base.length - 8), '"}'), 'PAYLOAD_TOO_LARGE');
  const many = buildDayBatch(random, 'NYC-0001', businessDateOf(4001), 501, 'many');
  add('501 records', text(many), 'BATCH_TOO_LARGE');
  // 500 records with 20 bad fields each: 10,000 problems' worth.
  const bad = JSON.parse(text(buildDayBatch(random, 'NYC-0001', businessDateOf(4002), 500, 'bad'))) as {
    trade_records: Record<string, unknown>[];
  };
  for (const r of bad.trade_records) for (const f of Object.keys(r).slice(0, 20)) r[f] = { marker };
  add('10,000 bad fields', text(bad));
  return cases;
}

async function send(c: Case): Promise<TestResponse & { raw: string }> {
  const headers: Record<string, string> = { 'x-functions-key': partner.key };
  if (c.contentType !== null) headers['content-type'] = c.contentType ?? 'application/json';
  const response = await fetch(`${service.baseUrl}/${c.path ?? 'trade-records'}`, {
    method: c.method ?? 'POST',
    headers,
    body: c.body as BodyInit,
  });
  const raw = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, headers: response.headers, raw };
}

/** A raw HTTP/1.1 exchange whose Content-Length says something else than the bytes sent. */
function rawRequest(declared: number, payload: Buffer, endAfterSend: boolean): Promise<string> {
  const url = new URL(service.baseUrl);
  return new Promise((resolve) => {
    const socket = net.connect(Number(url.port), url.hostname);
    let received = '';
    const done = () => {
      resolve(received);
    };
    socket.setTimeout(5000, () => {
      socket.destroy();
      done();
    });
    socket.on('data', (d) => (received += d.toString('latin1')));
    socket.on('end', done);
    socket.on('error', done);
    socket.on('connect', () => {
      socket.write(
        `POST ${url.pathname}/trade-records HTTP/1.1\r\nHost: ${url.host}\r\nx-functions-key: ${partner.key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${declared}\r\nConnection: close\r\n\r\n`,
      );
      socket.write(payload);
      if (endAfterSend) socket.end();
    });
  });
}

describe('hostile input corpus', () => {
  it('answers every case with a 4xx and its stable code, never 5xx, never an echo of the input; Object.prototype and memory intact', async () => {
    const ok = await send({ name: 'baseline', body: text(valid('baseline')), code: 'INVALID_PAYLOAD' });
    expect(ok.status).toBe(202);
    const corpus = buildCorpus();
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const heapBefore = process.memoryUsage().heapUsed;
    const wrong: string[] = [];
    const echoes: string[] = [];
    let fiveHundreds = 0;
    for (const c of corpus) {
      const r = await send(c);
      if (r.status >= 500) fiveHundreds += 1;
      const code = errorCodeOf(r);
      if (r.status !== errorCatalogue[c.code].status || code !== c.code) wrong.push(`${c.name}: ${r.status} ${code ?? '-'}`);
      if (r.raw.includes(marker) || (c.secret && r.raw.includes(c.secret))) echoes.push(`${c.name}: ${r.raw.slice(0, 300)}`);
      const details = code === undefined ? 0 : (errorOf(r).details?.length ?? 0);
      if (details > 50) wrong.push(`${c.name}: ${details} details`);
    }
    // Stable: a second send of a sample gives the same code.
    for (const c of corpus.filter((_, i) => i % 10 === 0)) {
      const r = await send(c);
      const code = errorCodeOf(r);
      if (code !== c.code) wrong.push(`${c.name} (second send): ${code ?? '-'}`);
    }
    const heapGrowthMb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / 1024;
    console.log(
      `hostile input: ${corpus.length} cases, ${wrong.length} wrong answers, ${fiveHundreds} 5xx, ${echoes.length} echoes, heap growth ${heapGrowthMb.toFixed(1)} MB`,
    );
    expect(echoes).toEqual([]);
    expect(wrong).toEqual([]);
    expect(fiveHundreds).toBe(0);
    expect(corpus.length).toBeGreaterThanOrEqual(200);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(heapGrowthMb).toBeLessThan(300);
  });

  it('a Content-Length that lies is answered 4xx, not 5xx', async () => {
    const body = Buffer.from(text(valid('cl')));
    // Declares more than the cap: refused before reading.
    expect(await rawRequest(6 * 1024 * 1024, body, false)).toMatch(/^HTTP\/1\.1 413/);
    // Declares fewer bytes than sent: the body read is a truncated JSON object.
    expect(await rawRequest(body.length - 10, body, false)).toMatch(/^HTTP\/1\.1 400/);
    // Declares more than sent, then the client stops sending: nothing 5xx comes back.
    const short = await rawRequest(body.length + 100, body, true);
    expect(short).not.toMatch(/^HTTP\/1\.1 5/);
  });
});
