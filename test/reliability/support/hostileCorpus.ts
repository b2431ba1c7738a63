/**
 * The hostile and unusual input corpus: what real POS systems and attackers send, for every
 * endpoint, with the answer each must get (the error code and, where the case names one field, the
 * JSON path of the problem). Sent by `hostileInput.test.ts`, which then scans storage.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { findProjectRoot } from '../../../src/config/findProjectRoot.js';
import { errorCatalogue } from '../../../src/errors/errorCatalogue.js';
import { passesGtinCheck } from '../../../src/domain/validation/luhn.js';
import { cardPositiveCases } from '../../domain/validation/sensitiveDataLabelledSet.js';
import { buildDailyClose, buildMappingBatch, buildProductBatch, buildUsdStore } from '../../fixtures/masterDataFixtures.js';
import { withValueAt, withoutValueAt } from '../../support/jsonEdits.js';
import { errorCodeOf, errorOf, readResponse, type TestResponse } from '../../support/responseBodies.js';
import type { TestPartner, TestService } from '../../support/startTestService.js';
import { buildDayBatch, businessDateOf } from './dayScenario.js';
import { seededUuid } from './random.js';

/** A marker in hostile values: no answer may carry it. */
const marker = 'ZQXMARKER';

type Endpoint = 'trade-records' | 'daily-close' | 'stores' | 'products' | 'mappings/transaction-types';
const methodOf: Readonly<Record<Endpoint, 'POST' | 'PUT'>> = {
  'trade-records': 'POST',
  'daily-close': 'POST',
  stores: 'PUT',
  products: 'PUT',
  'mappings/transaction-types': 'PUT',
};
const endpoints = Object.keys(methodOf) as Endpoint[];

export interface Case {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly body?: string | Uint8Array;
  /** null: no Content-Type header. */
  readonly contentType?: string | null;
  /** The answer: an error code of the catalogue, or ACCEPTED (202). */
  readonly expect: keyof typeof errorCatalogue | 'ACCEPTED';
  /** The JSON path one of the answer's details must name. */
  readonly at?: string;
  /** Text besides the marker that the answer must not carry. */
  readonly secret?: string;
  /** The body's batch_id, when it has one: a refused batch must leave nothing behind, an accepted one must be committed. */
  readonly batchId?: string;
}

const statusOf = (expected: Case['expect']): number => (expected === 'ACCEPTED' ? 202 : errorCatalogue[expected].status);

const text = (value: unknown): string => JSON.stringify(value);
const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));
const many = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));

/** Ids the schema refuses: controls, separators, bidirectional and invisible characters, whitespace at an end. */
const forbiddenIds: readonly string[] = [
  ...['\u2028', '\u2029', '\u0085', '\u0000', '\u001b', '\u007f', '\u0080', '\u009f', '\u202a', '\u202b', '\u202c', '\u202d', '\u202e']
    .concat(['\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff'])
    .concat(['\u00ad'])
    .map((ch) => `T-${ch}${marker}`),
  ` ${marker}`,
  `${marker} `,
  `\u00a0${marker}`,
  `${marker}\u3000`,
  `${marker}\t`,
  `\n${marker}`,
  ' ',
  '\u3000\u3000',
  '',
];

/** Where ids go in each endpoint's body. */
const idFields: readonly (readonly [Endpoint, string])[] = [
  ['trade-records', '/trade_records/0/trade_record_id'],
  ['trade-records', '/trade_records/0/source_transaction_type'],
  ['trade-records', '/trade_records/0/original_trade_record_id'],
  ['trade-records', '/trade_records/0/payments/0/payment_id'],
  ['trade-records', '/trade_records/0/items/0/product_id'],
  ['trade-records', '/trade_records/0/items/0/modifiers/0/group_id'],
  ['trade-records', '/trade_records/0/tax_lines/0/tax_code'],
  ['trade-records', '/store_id'],
  ['stores', '/stores/0/store_id'],
  ['products', '/products/0/product_id'],
  ['products', '/modifier_groups/0/group_id'],
  ['products', '/modifier_groups/0/options/0/option_id'],
  ['mappings/transaction-types', '/mappings/0/source_code'],
  ['daily-close', '/store_id'],
];

/** Builds the corpus; `random` makes the batch ids (the same seed gives the same corpus). */
export function buildHostileCorpus(random: () => number): Case[] {
  const cases: Case[] = [];
  let tags = 0;
  const valid = (endpoint: Endpoint): object => {
    const batchId = seededUuid(random);
    switch (endpoint) {
      case 'trade-records':
        return { ...buildDayBatch(random, 'NYC-0001', businessDateOf(4000), 1, `h${tags++}`), batch_id: batchId };
      case 'daily-close':
        return { ...buildDailyClose('USD'), batch_id: batchId };
      case 'stores':
        return { batch_id: batchId, stores: [buildUsdStore('NYC-0001')] };
      case 'products':
        return { ...buildProductBatch(), batch_id: batchId };
      case 'mappings/transaction-types':
        return { ...buildMappingBatch(), batch_id: batchId };
    }
  };
  const add = (
    endpoint: Endpoint,
    name: string,
    body: string | Uint8Array,
    expected: Case['expect'] = 'INVALID_PAYLOAD',
    extra: Partial<Case> = {},
  ): void => {
    let batchId: string | undefined;
    if (typeof body === 'string') {
      try {
        const id = (JSON.parse(body) as { batch_id?: unknown }).batch_id;
        if (typeof id === 'string') batchId = id;
      } catch {
        // Not JSON: no batch to look for.
      }
    }
    cases.push({
      name: `${methodOf[endpoint]} /${endpoint}: ${name}`,
      method: methodOf[endpoint],
      path: endpoint,
      body,
      expect: expected,
      ...(batchId ? { batchId } : {}),
      ...extra,
    });
  };
  /** A valid body with values set at JSON pointers. */
  const edited = (endpoint: Endpoint, ...edits: (readonly [string, unknown])[]): string =>
    text(edits.reduce<object>((body, [pointer, value]) => withValueAt(body, pointer, value), valid(endpoint)));
  /** A case that sets one value and expects it refused at its path. */
  const refusedAt = (endpoint: Endpoint, name: string, pointer: string, value: unknown, extra: Partial<Case> = {}): void => {
    add(endpoint, name, edited(endpoint, [pointer, value]), 'INVALID_PAYLOAD', { at: pointer, ...extra });
  };
  const trade = buildDayBatch(random, 'NYC-0001', businessDateOf(4000), 1, 'template');
  const record = trade.trade_records[0]!;
  const products = buildProductBatch();

  for (const endpoint of endpoints) {
    const base = text(valid(endpoint));
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
      ['lone brace', '{'],
      ['unterminated string', `{"batch_id":"${marker}`],
      ['NaN literal', base.replace('{', '{"x":NaN,')],
    ] as const) {
      add(endpoint, name, body);
    }
    // Encodings.
    const cut = base.indexOf('"batch_id":"') + 12;
    add(endpoint, 'invalid UTF-8 byte', bytes(base.slice(0, cut), [0xff], base.slice(cut)));
    add(endpoint, 'overlong UTF-8', bytes(base.slice(0, cut), [0xc0, 0x80], base.slice(cut)));
    add(endpoint, 'truncated UTF-8 sequence', bytes(base.slice(0, cut), [0xe2, 0x82], base.slice(cut)));
    add(endpoint, 'UTF-8 encoded surrogate', bytes(base.slice(0, cut), [0xed, 0xa0, 0x80], base.slice(cut)));
    add(endpoint, 'byte order mark', bytes([0xef, 0xbb, 0xbf], base));
    add(endpoint, 'UTF-16 body', Buffer.from(base, 'utf16le'));
    add(endpoint, 'lone surrogate escape', base.replace('{', `{"x":"\\ud800${marker}",`));
    add(endpoint, 'raw control character in a string', base.replace('{', `{"x":"a\u0001${marker}",`));
    // Prototype keys, nesting, duplicates.
    for (const key of ['__proto__', 'constructor', 'prototype']) {
      add(endpoint, `${key} key`, base.replace('{', `{"${key}":{"polluted":"${marker}"},`));
    }
    add(endpoint, 'arrays nested 10,000 deep', base.replace('{', `{"x":${'['.repeat(10_000)}${']'.repeat(10_000)},`));
    add(endpoint, 'objects nested 10,000 deep', base.replace('{', `{"x":${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)},`));
    add(endpoint, 'unclosed nesting 100,000 deep', base.replace('{', `{"x":${'['.repeat(100_000)}`));
    add(endpoint, 'duplicate batch_id', base.replace('{', `{"batch_id":"${marker}",`));
    add(endpoint, 'duplicate key, escaped spelling', base.replace('{', `{"batch\\u005fid":"${marker}",`));
    refusedAt(endpoint, 'batch_id not a UUID', '/batch_id', marker);
    refusedAt(endpoint, 'batch_id a number', '/batch_id', 123);
    add(endpoint, 'unknown field', edited(endpoint, ['/x_extra', marker]));
    add(endpoint, 'without batch_id', text(withoutValueAt(valid(endpoint), '/batch_id')), 'INVALID_PAYLOAD', { at: '/batch_id' });
    // Content types.
    for (const contentType of [
      null,
      'text/plain',
      'application/xml',
      'application/x-www-form-urlencoded',
      'application/jsonx',
      'multipart/form-data; boundary=x',
      'application/json-patch+json',
    ]) {
      add(endpoint, `Content-Type ${contentType ?? '(none)'}`, base, 'UNSUPPORTED_MEDIA_TYPE', { contentType });
    }
    add(endpoint, '5 MB + 1 byte', bytes(base.slice(0, -1), ',"pad":"', 'x'.repeat(5 * 1024 * 1024), '"}'), 'PAYLOAD_TOO_LARGE');
  }

  // Ids with controls, separators, bidirectional and invisible characters, whitespace at an end.
  for (const [endpoint, pointer] of idFields) {
    forbiddenIds.forEach((id, i) => {
      // A store_id the schema refuses never reaches the tenancy check; the path is the field's.
      refusedAt(endpoint, `${pointer} forbidden id #${i}`, pointer, id);
    });
    refusedAt(endpoint, `${pointer} 129 characters`, pointer, '漢'.repeat(129));
  }
  // Free text with control characters.
  refusedAt('trade-records', 'product_name with a terminal escape', '/trade_records/0/items/0/product_name', `Name\u001b[2J${marker}`);
  refusedAt(
    'trade-records',
    'payment_method_detail with a C1 control',
    '/trade_records/0/payments/1/payment_method_detail',
    `VISA\u0085${marker}`,
  );
  refusedAt('trade-records', 'order_source_detail with a tab', '/trade_records/0/order_source_detail', `Uber\t${marker}`);
  refusedAt('trade-records', 'option_name with a NUL', '/trade_records/0/items/1/modifiers/0/option_name', `Cheese\u0000${marker}`);
  refusedAt('stores', 'store_name with a line break', '/stores/0/store_name', `Broadway\n${marker}`);
  refusedAt('products', 'localized name with a NUL', '/products/0/name/en-US', `Burger\u0000${marker}`);
  refusedAt('products', 'category name with DEL', '/products/0/category_name/en-US', `Combos\u007f${marker}`);
  refusedAt('mappings/transaction-types', 'source_name with a bell', '/mappings/0/source_name', `Sale\u0007${marker}`);
  // Over-long text where the limit is in characters of any script.
  refusedAt('trade-records', 'payment_type of 51 CJK characters', '/trade_records/0/payments/0/payment_type', '支'.repeat(51));
  refusedAt('trade-records', 'member_id of 51 emoji', '/trade_records/0/member_id', '😀'.repeat(51));
  refusedAt('products', 'a localized name of 501 emoji', '/products/0/name/en-US', '😀'.repeat(501));

  // Business dates outside 2000-01-01 … today + 2 days, and dates that are not dates.
  for (const date of ['0000-01-01', '1970-01-01', '1999-12-31', '2099-12-31', '9999-12-31']) {
    add(
      'trade-records',
      `business_date ${date}`,
      edited('trade-records', ['/business_date', date], ['/trade_records/0/business_date', date]),
      'INVALID_PAYLOAD',
      { at: '/business_date' },
    );
    refusedAt('daily-close', `business_date ${date}`, '/business_date', date);
  }
  for (const date of ['2026-02-30', '2026-3-1', '20260301', marker]) {
    refusedAt('trade-records', `business_date ${date}`, '/business_date', date);
    refusedAt('daily-close', `business_date ${date}`, '/business_date', date);
  }

  // Arrays over their limits: refused at the array's path, before anything is written.
  const item = record.items[4]!;
  const payment = record.payments[0]!;
  refusedAt(
    'trade-records',
    '501 items',
    '/trade_records/0/items',
    many(501, (i) => ({ ...item, line_no: i + 1, parent_line_no: null })),
  );
  refusedAt(
    'trade-records',
    '600 payments of 50-character types',
    '/trade_records/0/payments',
    many(600, (i) => ({ ...payment, payment_id: `P${i}`, payment_type: 'X'.repeat(50) })),
  );
  refusedAt(
    'trade-records',
    '51 payments of 50-character CJK types',
    '/trade_records/0/payments',
    many(51, (i) => ({ ...payment, payment_id: `P${i}`, payment_type: '支'.repeat(50) })),
  );
  refusedAt(
    'trade-records',
    '51 modifiers',
    '/trade_records/0/items/1/modifiers',
    many(51, () => record.items[1]!.modifiers[0]),
  );
  refusedAt(
    'trade-records',
    '51 tax lines',
    '/trade_records/0/tax_lines',
    many(51, () => record.tax_lines![0]),
  );
  add(
    'trade-records',
    '501 records',
    edited('trade-records', ['/trade_records', many(501, (i) => ({ ...record, trade_record_id: `T-${i}` }))]),
    'BATCH_TOO_LARGE',
  );
  add('stores', '501 stores', edited('stores', ['/stores', many(501, (i) => buildUsdStore(`S-${i}`))]), 'BATCH_TOO_LARGE');
  add(
    'products',
    '501 products',
    edited('products', ['/products', many(501, (i) => ({ ...products.products[3]!, product_id: `P-${i}` }))]),
    'BATCH_TOO_LARGE',
  );
  add(
    'mappings/transaction-types',
    '10,001 entries',
    edited('mappings/transaction-types', ['/mappings', many(10_001, (i) => ({ source_code: `C${i}`, standard_code: 'SALE' }))]),
    // The contract's BATCH_TOO_LARGE is for trade-records, stores and products; a mapping is one document.
    'INVALID_PAYLOAD',
    { at: '/mappings' },
  );
  refusedAt(
    'products',
    '51 modifier_group_ids',
    '/products/0/modifier_group_ids',
    many(51, (i) => `MG-${i}`),
  );
  refusedAt(
    'products',
    '51 combo components',
    '/products/0/combo_components',
    many(51, () => products.products[0]!.combo_components![0]),
  );
  const group = products.modifier_groups![0]!;
  refusedAt(
    'products',
    '101 options',
    '/modifier_groups/0/options',
    many(101, (i) => ({ ...group.options[0]!, option_id: `O-${i}` })),
  );
  refusedAt(
    'products',
    '501 modifier groups',
    '/modifier_groups',
    many(501, (i) => ({ ...group, group_id: `G-${i}` })),
  );
  const twentyLocales = Object.fromEntries(many(20, (i) => [`en-x-l${i}`, 'n'.repeat(500)]));
  refusedAt('products', 'a modifier group over 1 MiB as stored', '/modifier_groups/0', {
    ...group,
    options: many(100, (i) => ({ option_id: `O-${i}`, name: twentyLocales, price_delta: '0.00' })),
  });
  refusedAt('products', 'a modifier group over 1 MiB in emoji', '/modifier_groups/0', {
    ...group,
    options: many(100, (i) => ({
      option_id: `O-${i}`,
      name: Object.fromEntries(many(8, (l) => [`en-x-l${l}`, '😀'.repeat(500)])),
      price_delta: '0.00',
    })),
  });

  // Card numbers, spelt every way, in the free text of every endpoint.
  const where: readonly (readonly [Endpoint, string, (card: string) => string])[] = [
    ['trade-records', '/trade_records/0/items/0/product_name', (card) => `Combo ${card}`],
    ['trade-records', '/trade_records/0/payments/1/payment_method_detail', (card) => card],
    ['trade-records', '/trade_records/0/items/1/modifiers/0/option_name', (card) => card],
    ['stores', '/stores/0/store_name', (card) => `Store ${card}`],
    ['products', '/products/0/name/en-US', (card) => card],
    ['mappings/transaction-types', '/mappings/0/source_name', (card) => card],
  ];
  // Every 20th spelling, leaving out the 13- and 14-digit numbers that are also valid barcodes
  // (spared on purpose, see sensitiveData.test.ts).
  cardPositiveCases
    .filter(({ pan }, i) => i % 20 === 7 && !(pan.length <= 14 && passesGtinCheck(pan)))
    .map(({ text: card }) => card)
    .forEach((card, i) => {
      const [endpoint, pointer, spell] = where[i % where.length]!;
      refusedAt(endpoint, `card number spelling #${i} at ${pointer}`, pointer, spell(card), { secret: card });
    });
  for (const card of ['4111111111111111', '5555-5555-5555-4444', '378282246310005']) {
    add('trade-records', `card number as a field name ${card}`, edited('trade-records', [`/${card}`, 1]), 'INVALID_PAYLOAD', {
      secret: card,
    });
    add(
      'trade-records',
      `card number as a nested field name ${card}`,
      edited('trade-records', [`/trade_records/0/${card}`, 1]),
      'INVALID_PAYLOAD',
      { secret: card },
    );
    add(
      'trade-records',
      `card number as a duplicate key ${card}`,
      edited('trade-records').replace('{', `{"${card}":1,"${card}":2,`),
      'INVALID_PAYLOAD',
      {
        secret: card,
      },
    );
  }

  // Numbers JSON.stringify cannot write, spliced into the text.
  for (const raw of [
    '1e400',
    '-1e400',
    '9007199254740993',
    '1.5',
    '6.9999999999999999',
    '7e-400',
    '-1',
    '123456789012345678901234567890',
    '01',
    '+1',
    '0x10',
    'Infinity',
  ]) {
    add(
      'trade-records',
      `version = ${raw}`,
      edited('trade-records', ['/trade_records/0/version', 7]).replace('"version":7', `"version":${raw}`),
    );
    add(
      'daily-close',
      `trade_record_count = ${raw}`,
      edited('daily-close', ['/trade_record_count', 7]).replace('"trade_record_count":7', `"trade_record_count":${raw}`),
    );
  }
  for (const raw of ['"1.001"', '"1e2"', '" 1.00"', '"+1.00"', '"NaN"', '"1,00"', `"${marker}"`, '1.00', 'null']) {
    add(
      'trade-records',
      `total_amount = ${raw}`,
      edited('trade-records', ['/trade_records/0/total_amount', 'X']).replace('"total_amount":"X"', `"total_amount":${raw}`),
      'INVALID_PAYLOAD',
      { at: '/trade_records/0/total_amount' },
    );
    add(
      'daily-close',
      `net_sales_amount = ${raw}`,
      edited('daily-close', ['/net_sales_amount', 'X']).replace('"net_sales_amount":"X"', `"net_sales_amount":${raw}`),
      'INVALID_PAYLOAD',
      { at: '/net_sales_amount' },
    );
  }
  // Every required field of a record, an item and a payment, removed one at a time.
  const tradeSchema = JSON.parse(readFileSync(path.join(findProjectRoot(), 'schemas', 'trade-records.schema.json'), 'utf8')) as {
    $defs: Record<'tradeRecord' | 'tradeItem' | 'payment', { required: string[] }>;
  };
  const removed = (pointer: string): void => {
    add('trade-records', `without ${pointer}`, text(withoutValueAt(valid('trade-records'), pointer)), 'INVALID_PAYLOAD', { at: pointer });
  };
  for (const field of tradeSchema.$defs.tradeRecord.required) removed(`/trade_records/0/${field}`);
  for (const field of tradeSchema.$defs.tradeItem.required) removed(`/trade_records/0/items/0/${field}`);
  for (const field of tradeSchema.$defs.payment.required) removed(`/trade_records/0/payments/0/${field}`);
  refusedAt('trade-records', 'record of another store', '/trade_records/0/store_id', 'NYC-0002');
  refusedAt('trade-records', 'record of another date', '/trade_records/0/business_date', '2026-01-02');
  add(
    'trade-records',
    '10,000 bad fields',
    (() => {
      const body = buildDayBatch(random, 'NYC-0001', businessDateOf(4002), 500, 'bad');
      return text({
        ...body,
        trade_records: body.trade_records.map((r) =>
          Object.fromEntries(Object.entries(r).map(([k, v], i) => [k, i < 20 ? { marker } : v])),
        ),
      });
    })(),
  );
  add(
    'trade-records',
    'store not registered',
    edited('trade-records', ['/store_id', 'LAX-0404'], ['/trade_records/0/store_id', 'LAX-0404']),
    'STORE_NOT_ALLOWED',
  );
  add('daily-close', 'store not registered', edited('daily-close', ['/store_id', 'LAX-0404']), 'STORE_NOT_ALLOWED');
  add('stores', 'store not registered', edited('stores', ['/stores/0/store_id', 'LAX-0404']), 'STORE_NOT_ALLOWED');
  add('products', 'product of a store not registered', edited('products', ['/products/0/store_id', 'LAX-0404']), 'STORE_NOT_ALLOWED');
  add(
    'mappings/transaction-types',
    'standard code outside the list',
    edited('mappings/transaction-types', ['/mappings/0/standard_code', 'GIVEAWAY']),
    'UNKNOWN_STANDARD_CODE',
  );

  // The reconciliation query: malformed dates and stores that are not the partner's.
  for (const date of ['0000-00-00', '2026-02-30', '2026-13-01', 'x'.repeat(300), '%E2%80%A8', marker]) {
    cases.push({
      name: `GET reconciliation date ${date.slice(0, 20)}`,
      method: 'GET',
      path: `daily-close/NYC-0001/${date}`,
      expect: 'INVALID_PAYLOAD',
    });
  }
  for (const store of [
    'NOT-MINE',
    'NYC-0001%00',
    encodeURIComponent('漢'.repeat(200)),
    'a%2Fb',
    '%E2%80%A8',
    encodeURIComponent(' NYC-0001'),
  ]) {
    cases.push({
      name: `GET reconciliation store ${store.slice(0, 20)}`,
      method: 'GET',
      path: `daily-close/${store}/2026-03-01`,
      expect: 'STORE_NOT_ALLOWED',
    });
  }

  // Unusual but valid: stored whole and acknowledged.
  const unusualIds = [
    'é'.repeat(128),
    '漢'.repeat(128),
    '😀'.repeat(128),
    'كود ١٢٣ — שלום',
    `${'/'.repeat(120)}#?\\|~`,
    'Nº 12/3 #4? ½',
    '~~looks like a digest',
  ];
  for (const id of unusualIds) {
    const label = `${id.slice(0, 6)}…`;
    add(
      'trade-records',
      `accepted: trade_record_id ${label}`,
      edited('trade-records', ['/trade_records/0/trade_record_id', id]),
      'ACCEPTED',
    );
    add(
      'trade-records',
      `accepted: unmapped source_transaction_type ${label}`,
      edited('trade-records', ['/trade_records/0/source_transaction_type', id]),
      'ACCEPTED',
    );
    add(
      'trade-records',
      `accepted: item product_id ${label}`,
      edited('trade-records', ['/trade_records/0/items/0/product_id', id]),
      'ACCEPTED',
    );
    add(
      'trade-records',
      `accepted: payment_type ${label.slice(0, 50)}`,
      edited('trade-records', ['/trade_records/0/payments/0/payment_type', id.slice(0, 50)]),
      'ACCEPTED',
    );
    add('products', `accepted: product_id ${label}`, edited('products', ['/products/3/product_id', id]), 'ACCEPTED');
    add(
      'products',
      `accepted: modifier group_id ${label}`,
      edited('products', ['/modifier_groups/0/group_id', id], ['/products/0/modifier_group_ids/0', id]),
      'ACCEPTED',
    );
    add(
      'mappings/transaction-types',
      `accepted: source_code ${label}`,
      edited('mappings/transaction-types', ['/mappings/3/source_code', id]),
      'ACCEPTED',
    );
  }
  add(
    'trade-records',
    'accepted: 250 records, some with ids of 100 × é, 128 × 漢 or 😀',
    (() => {
      const body = buildDayBatch(random, 'NYC-0001', businessDateOf(4003), 250, 'mb');
      ['é'.repeat(100), 'é'.repeat(128), '漢'.repeat(128), '😀'.repeat(128)].forEach((id, i) => {
        body.trade_records[10 + 60 * i]!.trade_record_id = id;
        body.trade_records[11 + 60 * i]!.items[0]!.product_id = '漢'.repeat(60);
      });
      return text({ ...body, batch_id: seededUuid(random) });
    })(),
    'ACCEPTED',
  );
  add(
    'trade-records',
    'accepted: names in many scripts and emoji',
    edited(
      'trade-records',
      ['/trade_records/0/items/0/product_name', 'Café « spécial » — 漢字 😀 مرحبا'],
      ['/trade_records/0/order_source_detail', 'Uber Eats 🍔'],
    ),
    'ACCEPTED',
  );
  add(
    'trade-records',
    'accepted: business_date 2000-01-01',
    edited('trade-records', ['/business_date', '2000-01-01'], ['/trade_records/0/business_date', '2000-01-01']),
    'ACCEPTED',
  );
  add(
    'products',
    'accepted: 100 locales of 500 emoji',
    edited('products', ['/products/3/name', Object.fromEntries(many(100, (i) => [`en-x-p${i}`, '😀'.repeat(500)]))]),
    'ACCEPTED',
  );
  add(
    'trade-records',
    'accepted: 50 payments of 50-character CJK types',
    edited('trade-records', [
      '/trade_records/0/payments',
      many(50, (i) => ({ ...payment, payment_id: `P${i}`, payment_type: '支'.repeat(50), amount: '0.00' })),
    ]),
    'ACCEPTED',
  );
  return cases;
}

export interface CorpusReport {
  readonly cases: number;
  readonly wrong: string[];
  readonly fiveHundreds: number;
  readonly echoes: string[];
  /** batch_ids of the cases answered with a refusal (4xx). */
  readonly refusedBatchIds: Set<string>;
  /** batch_ids of the cases answered 202. */
  readonly acceptedBatchIds: Set<string>;
  /** Per case name, the code and detail paths answered (to compare two runs). */
  readonly answers: Map<string, string>;
}

/** Sends every case, `concurrency` at a time, and checks each answer. */
export async function sendCorpus(
  service: TestService,
  partner: TestPartner,
  cases: readonly Case[],
  concurrency = 8,
): Promise<CorpusReport> {
  const wrong: string[] = [];
  const echoes: string[] = [];
  const refusedBatchIds = new Set<string>();
  const acceptedBatchIds = new Set<string>();
  const answers = new Map<string, string>();
  let fiveHundreds = 0;
  for (let start = 0; start < cases.length; start += concurrency) {
    await Promise.all(
      cases.slice(start, start + concurrency).map(async (c) => {
        const { response, raw } = await send(service, partner, c);
        if (response.status >= 500) fiveHundreds += 1;
        const code = response.status === 202 ? 'ACCEPTED' : errorCodeOf(response);
        const paths = code === undefined || code === 'ACCEPTED' ? [] : (errorOf(response).details ?? []).map((d) => d.path);
        answers.set(c.name, `${response.status} ${code ?? '-'} ${paths.join(' ')}`);
        if (response.status !== statusOf(c.expect) || code !== c.expect) wrong.push(`${c.name}: ${response.status} ${code ?? '-'}`);
        else if (c.at !== undefined && !paths.includes(c.at)) wrong.push(`${c.name}: paths ${paths.join(', ')} lack ${c.at}`);
        if (raw.includes(marker) || (c.secret !== undefined && raw.includes(c.secret))) echoes.push(`${c.name}: ${raw.slice(0, 300)}`);
        if (paths.length > 50) wrong.push(`${c.name}: ${paths.length} details`);
        if (c.batchId !== undefined) {
          if (response.status >= 400 && response.status < 500) refusedBatchIds.add(c.batchId);
          if (response.status === 202) acceptedBatchIds.add(c.batchId);
        }
      }),
    );
  }
  return { cases: cases.length, wrong, fiveHundreds, echoes, refusedBatchIds, acceptedBatchIds, answers };
}

async function send(service: TestService, partner: TestPartner, c: Case): Promise<{ response: TestResponse; raw: string }> {
  const headers: Record<string, string> = { 'x-functions-key': partner.key };
  if (c.body !== undefined && c.contentType !== null) headers['content-type'] = c.contentType ?? 'application/json';
  const answer = await fetch(`${service.baseUrl}/${c.path}`, {
    method: c.method,
    headers,
    body: typeof c.body === 'string' || c.body === undefined ? (c.body ?? null) : Buffer.from(c.body),
  });
  const raw = await answer.clone().text();
  return { response: await readResponse(answer), raw };
}
