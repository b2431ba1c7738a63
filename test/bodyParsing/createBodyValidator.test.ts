import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBodyValidator } from '../../src/bodyParsing/createBodyValidator.js';
import { readSchemaFolder } from '../../src/bodyParsing/readSchemaFolder.js';
import { findProjectRoot } from '../../src/config/findProjectRoot.js';
import { parseJsonBody } from '../../src/bodyParsing/parseJsonBody.js';
import { buildDailyClose, buildMappingBatch, buildProductBatch, buildStoreBatch } from '../fixtures/masterDataFixtures.js';
import { buildTradeRecordBatch } from '../fixtures/tradeRecordFixtures.js';
import { anyString, stringMatching } from '../support/matchers.js';

const validator = createBodyValidator(readSchemaFolder());

/** A trade-records body (as plain JSON data) with one change applied to its first record. */
function tradeBody(change: (record: Record<string, unknown>, batch: Record<string, unknown>) => void): unknown {
  const batch = JSON.parse(JSON.stringify(buildTradeRecordBatch({ recordCount: 2 }))) as Record<string, unknown>;
  const record = (batch.trade_records as Record<string, unknown>[])[0]!;
  change(record, batch);
  return batch;
}

function item(record: Record<string, unknown>, index = 0): Record<string, unknown> {
  return (record.items as Record<string, unknown>[])[index]!;
}

function payment(record: Record<string, unknown>, index = 0): Record<string, unknown> {
  return (record.payments as Record<string, unknown>[])[index]!;
}

const tradeProblems = (change: Parameters<typeof tradeBody>[0]) => validator.validate('tradeRecords', tradeBody(change));

describe('findProjectRoot', () => {
  it('finds the folder holding package.json and schemas/ from a nested folder', () => {
    const root = findProjectRoot();
    expect(path.basename(path.join(root, 'schemas'))).toBe('schemas');
    expect(findProjectRoot(path.join(root, 'dist', 'src', 'bodyParsing'))).toBe(root);
  });

  it('fails clearly when there is none', () => {
    expect(() => findProjectRoot(path.parse(process.cwd()).root)).toThrow(/No folder/);
  });
});

describe('createBodyValidator: valid bodies', () => {
  it.each([
    ['tradeRecords', () => buildTradeRecordBatch({ currency: 'USD' })],
    ['tradeRecords', () => buildTradeRecordBatch({ currency: 'JPY' })],
    ['dailyClose', () => buildDailyClose('USD')],
    ['dailyClose', () => buildDailyClose('JPY')],
    ['stores', () => buildStoreBatch()],
    ['products', () => buildProductBatch()],
    ['products', () => ({ ...buildProductBatch(), products: [] })],
    ['mappings', () => buildMappingBatch()],
  ] as const)('accepts a valid %s body', (kind, build) => {
    expect(validator.validate(kind, JSON.parse(JSON.stringify(build())))).toEqual([]);
  });

  it('states the batch limits in the schemas (BATCH_TOO_LARGE reads them from there)', () => {
    expect(validator.maxItems('tradeRecords', 'trade_records')).toBe(500);
    expect(validator.maxItems('stores', 'stores')).toBe(500);
    expect(validator.maxItems('products', 'products')).toBe(500);
    expect(validator.maxItems('mappings', 'mappings')).toBe(10_000);
    expect(validator.maxItems('tradeRecords', 'batch_id')).toBeUndefined();
  });

  it('caps every array of every body', () => {
    const tooMany = <T>(n: number, make: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => make(i));
    const cases: [number, (r: Record<string, unknown>) => void, string][] = [
      [500, (r) => (r.items = tooMany(501, (i) => ({ ...item(r), line_no: i + 1 }))), '/trade_records/0/items'],
      [50, (r) => (r.payments = tooMany(51, (i) => ({ ...payment(r), payment_id: `P-${i}` }))), '/trade_records/0/payments'],
      [
        50,
        (r) => (item(r).modifiers = tooMany(51, () => ({ group_id: 'G', option_id: 'O', quantity: '1', price_delta: '0.00' }))),
        '/trade_records/0/items/0/modifiers',
      ],
      [
        50,
        (r) =>
          (r.tax_lines = tooMany(51, () => ({
            tax_code: 'T',
            tax_rate: '0.1',
            taxable_amount: '1.00',
            tax_amount: '0.10',
            is_inclusive: false,
          }))),
        '/trade_records/0/tax_lines',
      ],
    ];
    for (const [, change, path] of cases)
      expect(tradeProblems(change), path).toEqual([{ path, message: stringMatching(/at most \d+ items/) }]);

    const products = () => JSON.parse(JSON.stringify(buildProductBatch())) as Record<string, Record<string, unknown>[]>;
    const body = products();
    body.products![0]!.modifier_group_ids = tooMany(51, (i) => `MG-${i}`);
    body.products![0]!.combo_components = tooMany(51, (i) => ({ product_id: `P-${i}`, quantity: '1', is_substitutable: false }));
    body.modifier_groups![0]!.options = tooMany(101, (i) => ({ option_id: `O-${i}`, name: { 'en-US': 'x' }, price_delta: '0.00' }));
    expect(validator.validate('products', body).map((p) => p.path)).toEqual([
      '/products/0/modifier_group_ids',
      '/products/0/combo_components',
      '/modifier_groups/0/options',
    ]);
    const groups = products();
    groups.modifier_groups = tooMany(501, (i) => ({ ...groups.modifier_groups![0]!, group_id: `MG-${i}` }));
    expect(validator.validate('products', groups).map((p) => p.path)).toEqual(['/modifier_groups']);
  });
});

describe('createBodyValidator: trade-records', () => {
  it('points at a missing required field', () => {
    expect(tradeProblems((r) => delete r.currency)).toEqual([{ path: '/trade_records/0/currency', message: 'is required' }]);
    expect(tradeProblems((_, b) => delete b.batch_seq)).toEqual([{ path: '/batch_seq', message: 'is required' }]);
    expect(tradeProblems((r) => delete item(r, 2).is_voided)[0]?.path).toBe('/trade_records/0/items/2/is_voided');
  });

  it('rejects an unknown field and points at it', () => {
    expect(tradeProblems((r) => (r.customer_name = 'x'))).toEqual([
      { path: '/trade_records/0/customer_name', message: 'unknown field; fields not in the contract are rejected' },
    ]);
    expect(tradeProblems((r) => (payment(r).cvv = '123'))[0]?.path).toBe('/trade_records/0/payments/0/cvv');
  });

  it('does not show an unknown field whose name is unsafe', () => {
    const problems = tradeProblems((r) => (r['<img src=x>'] = 1));
    expect(problems).toEqual([{ path: '/trade_records/0', message: stringMatching(/unknown field whose name cannot be shown/) }]);
  });

  it('rejects __proto__ and constructor keys without touching any prototype', () => {
    const parsed = parseJsonBody(
      new TextEncoder().encode(
        JSON.stringify(tradeBody(() => undefined)).replace(
          '{"batch_id"',
          '{"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}},"batch_id"',
        ),
      ),
    );
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const problems = validator.validate('tradeRecords', parsed.value);
    expect(problems.map((p) => p.path).sort()).toEqual(['/__proto__', '/constructor']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('rejects wrong types with a message naming the expected type, or what a shared definition wants', () => {
    expect(tradeProblems((r) => (r.version = '1'))).toEqual([
      { path: '/trade_records/0/version', message: 'must be an integer from 1 to 9007199254740991' },
    ]);
    expect(tradeProblems((r) => (r.prices_include_tax = 'false'))[0]?.message).toBe('must be true or false');
    expect(tradeProblems((r) => (r.closed_at = 5))[0]?.message).toBe(
      'must be null or an ISO 8601 date-time with seconds and a UTC offset (Z or +hh:mm)',
    );
    // An amount sent as a JSON number is told that it goes in a string.
    expect(tradeProblems((r) => (r.total_amount = 16.12))).toEqual([
      {
        path: '/trade_records/0/total_amount',
        message: 'must be a decimal amount in a JSON string of at most 14 integer digits, e.g. "12.50"',
      },
    ]);
    expect(tradeProblems((r) => (item(r).quantity = 1))[0]?.message).toMatch(/^must be a decimal quantity in a JSON string/);
    expect(tradeProblems((_, b) => (b.trade_records = {}))[0]?.message).toBe('must be an array');
  });

  it('refuses amounts and quantities the report files could not hold exactly, and accepts the largest they can', () => {
    expect(tradeProblems((r) => (r.total_amount = '123456789012345.00'))).toEqual([
      {
        path: '/trade_records/0/total_amount',
        message: 'must be a decimal amount in a JSON string of at most 14 integer digits, e.g. "12.50"',
      },
    ]);
    expect(tradeProblems((r) => (item(r).quantity = '0.1234567'))).toEqual([
      {
        path: '/trade_records/0/items/0/quantity',
        message: 'must be a decimal quantity in a JSON string of at most 12 integer digits and 6 decimal places, e.g. "2" or "0.125"',
      },
    ]);
    expect(tradeProblems((r) => (item(r).quantity = '1234567890123'))[0]?.path).toBe('/trade_records/0/items/0/quantity');
    expect(tradeProblems((r) => (r.tip_amount = '99999999999999.00'))).toEqual([]);
    expect(tradeProblems((r) => (item(r).quantity = '-999999999999.125'))).toEqual([]);
  });

  it('rejects values outside an enum and lists the allowed ones', () => {
    expect(tradeProblems((r) => (r.status = 'DONE'))).toEqual([
      { path: '/trade_records/0/status', message: 'must be one of: OPEN, COMPLETED, VOIDED, REFUNDED, PARTIALLY_REFUNDED' },
    ]);
    expect(tradeProblems((r) => (item(r).product_type = 'MEAL'))[0]?.path).toBe('/trade_records/0/items/0/product_type');
    expect(tradeProblems((r) => (item(r).tax_category = 'standard'))[0]?.path).toBe('/trade_records/0/items/0/tax_category');
  });

  it('accepts codes of the open enumerations order_type and payment_method, but only code-shaped', () => {
    expect(tradeProblems((r) => (r.order_type = 'DRIVE_THRU'))).toEqual([]);
    expect(tradeProblems((r) => (payment(r).payment_method = 'QR_WALLET'))).toEqual([]);
    expect(tradeProblems((r) => (r.order_type = 'dine in'))[0]?.path).toBe('/trade_records/0/order_type');
  });

  it.each([['12.5'], ['-3'], ['0'], ['0.000'], ['1234567.89']])('accepts the decimal string %s', (value) => {
    expect(tradeProblems((r) => (item(r).quantity = value))).toEqual([]);
  });

  it.each([['1,50'], ['1.'], ['.5'], ['+1'], ['1e3'], [''], [' 1'], ['NaN'], ['1'.repeat(41)]])(
    'rejects the decimal string %j',
    (value) => {
      const problems = tradeProblems((r) => (r.subtotal_amount = value));
      expect(problems).toHaveLength(1);
      expect(problems[0]?.path).toBe('/trade_records/0/subtotal_amount');
      expect(problems[0]?.message).toBe('must be a decimal amount in a JSON string of at most 14 integer digits, e.g. "12.50"');
    },
  );

  it('checks batch_id is a UUID', () => {
    expect(tradeProblems((_, b) => (b.batch_id = 'not-a-uuid'))[0]?.message).toMatch(/must be a UUID/);
    expect(tradeProblems((_, b) => (b.batch_id = 'urn:uuid:00000000-0000-4000-8000-000000000001'))[0]?.path).toBe('/batch_id');
    expect(tradeProblems((_, b) => (b.batch_id = 'A1B2C3D4-0000-4000-8000-00000000000F'))).toEqual([]);
  });

  it.each([['2026-02-30'], ['2026-13-01'], ['2025-02-29'], ['2026-3-1'], ['20260301'], ['2026-03-01T00:00:00Z']])(
    'rejects the business_date %s',
    (value) => {
      expect(tradeProblems((_, b) => (b.business_date = value))[0]).toEqual({
        path: '/business_date',
        message: 'must be a real calendar date in the form YYYY-MM-DD',
      });
    },
  );

  it('accepts 29 February in a leap year', () => {
    expect(
      tradeProblems((_r, b) => {
        b.business_date = '2028-02-29';
        (b.trade_records as Record<string, unknown>[]).forEach((record) => (record.business_date = '2028-02-29'));
      }),
    ).toEqual([]);
  });

  it.each([
    ['2026-03-01T12:00:00Z'],
    ['2026-03-01T12:00:00.123Z'],
    ['2026-03-01T12:00:00+09:00'],
    ['2026-03-01T12:00:00-05:30'],
    ['2026-03-01T12:00:00.123456789+00:00'],
  ])('accepts the timestamp %s', (value) => {
    expect(tradeProblems((r) => (r.opened_at = value))).toEqual([]);
  });

  it.each([
    ['no offset', '2026-03-01T12:00:00'],
    ['no seconds', '2026-03-01T12:00Z'],
    ['space separator', '2026-03-01 12:00:00Z'],
    ['lower-case z', '2026-03-01T12:00:00z'],
    ['offset without colon', '2026-03-01T12:00:00+0900'],
    ['hour-only offset', '2026-03-01T12:00:00+09'],
    ['day 30 of February', '2026-02-30T12:00:00Z'],
    ['hour 24', '2026-03-01T24:00:00Z'],
    ['minute 60', '2026-03-01T12:60:00Z'],
    ['offset hour 24', '2026-03-01T12:00:00+24:00'],
    ['a date only', '2026-03-01'],
  ])('rejects a timestamp with %s', (_, value) => {
    expect(tradeProblems((r) => (r.opened_at = value))).toEqual([
      { path: '/trade_records/0/opened_at', message: stringMatching(/ISO 8601 date-time with seconds and a UTC offset/) },
    ]);
  });

  it('accepts null for nullable fields and rejects null elsewhere', () => {
    expect(
      tradeProblems((r) => {
        r.closed_at = null;
        r.member_id = null;
        r.order_source = null;
        r.order_source_detail = null;
        item(r).parent_line_no = null;
        payment(r, 1).original_payment_id = null;
      }),
    ).toEqual([]);
    expect(tradeProblems((r) => (r.employee_id = null))[0]?.path).toBe('/trade_records/0/employee_id');
  });

  it('caps order_source, order_source_detail, payment_type and member_id at 50 characters', () => {
    for (const [field, set] of [
      ['order_source', (r: Record<string, unknown>, v: string) => (r.order_source = v)],
      ['order_source_detail', (r: Record<string, unknown>, v: string) => (r.order_source_detail = v)],
      ['member_id', (r: Record<string, unknown>, v: string) => (r.member_id = v)],
      ['payments/0/payment_type', (r: Record<string, unknown>, v: string) => (payment(r).payment_type = v)],
    ] as const) {
      expect(tradeProblems((r) => set(r, 'A'.repeat(50)))).toEqual([]);
      expect(tradeProblems((r) => set(r, 'A'.repeat(51)))).toEqual([
        { path: `/trade_records/0/${field}`, message: stringMatching(/1 to 50 characters without control characters$/) },
      ]);
    }
  });

  it('limits identifiers to 1..128 characters without control characters', () => {
    expect(tradeProblems((r) => (r.trade_record_id = 'T'.repeat(128)))).toEqual([]);
    expect(tradeProblems((r) => (r.trade_record_id = 'T'.repeat(129)))[0]?.path).toBe('/trade_records/0/trade_record_id');
    expect(tradeProblems((r) => (r.trade_record_id = ''))).toHaveLength(1);
    expect(tradeProblems((r) => (r.trade_record_id = 'T-1\n'))[0]?.message).toMatch(/control, line-separator/);
    expect(tradeProblems((r) => (payment(r).payment_id = 'P'.repeat(129)))[0]?.path).toBe('/trade_records/0/payments/0/payment_id');
    expect(tradeProblems((_, b) => (b.store_id = ''))[0]?.path).toBe('/store_id');
  });

  it('limits product_name to 500 characters', () => {
    expect(tradeProblems((r) => (item(r).product_name = 'n'.repeat(500)))).toEqual([]);
    expect(tradeProblems((r) => (item(r).product_name = 'n'.repeat(501)))[0]?.message).toBe(
      'must be 1 to 500 characters without control characters',
    );
  });

  it('counts characters, not UTF-16 units: 128 characters of any script are an identifier', () => {
    for (const letter of ['é', '漢', '𝟘', '😀', 'ä']) {
      expect(
        tradeProblems((r) => (r.trade_record_id = letter.repeat(128))),
        letter,
      ).toEqual([]);
      expect(tradeProblems((r) => (r.trade_record_id = letter.repeat(129)))[0]?.path, letter).toBe('/trade_records/0/trade_record_id');
    }
    expect(tradeProblems((r) => (item(r).product_name = '😀'.repeat(500)))).toEqual([]);
  });

  it('refuses ids with controls, line or paragraph separators, bidirectional or invisible characters, or whitespace at an end', () => {
    const refused = [
      'A\u2028B',
      'A\u2029B',
      'A\u0000B',
      'A\u0009B',
      'A\u001bB',
      'A\u007fB',
      'A\u0085B',
      'A\u009fB',
      'A\u202eB',
      'A\u202aB',
      'A\u2066B',
      'A\u2069B',
      'A\u200eB',
      'A\u200fB',
      'A\u061cB',
      'A\u200bB',
      'A\u2060B',
      'A\ufeffB',
      ' A',
      'A ',
      '\u00a0A',
      'A\u3000',
      'A\u2003',
      ' ',
      '   ',
      '\u3000',
      '',
    ];
    for (const id of refused) {
      for (const [path, set] of [
        ['/trade_records/0/trade_record_id', (r: Record<string, unknown>) => (r.trade_record_id = id)],
        ['/trade_records/0/payments/0/payment_id', (r: Record<string, unknown>) => (payment(r).payment_id = id)],
        ['/trade_records/0/items/0/product_id', (r: Record<string, unknown>) => (item(r).product_id = id)],
      ] as const) {
        expect(tradeProblems(set), `${JSON.stringify(id)} at ${path}`).toEqual([{ path, message: anyString() }]);
      }
    }
    // Inside an id, a space or any printable character of any script stays allowed.
    for (const id of ['A B', 'Nº 12/3 #4?', 'ORD 2026-03-01 0042', 'كود-١٢٣', 'שלום-1']) {
      expect(
        tradeProblems((r) => (r.trade_record_id = id)),
        id,
      ).toEqual([]);
    }
  });

  it('refuses control characters in free text (names, details, localized texts)', () => {
    expect(tradeProblems((r) => (item(r).product_name = 'Burger\u001b[2J'))[0]?.path).toBe('/trade_records/0/items/0/product_name');
    expect(tradeProblems((r) => (item(r).product_name = 'Burger\nno onions'))[0]?.path).toBe('/trade_records/0/items/0/product_name');
    expect(tradeProblems((r) => (payment(r).payment_method_detail = 'VISA\u0085'))[0]?.path).toBe(
      '/trade_records/0/payments/0/payment_method_detail',
    );
    expect(tradeProblems((r) => (r.order_source_detail = 'Uber\tEats'))[0]?.path).toBe('/trade_records/0/order_source_detail');
    expect(tradeProblems((r) => (item(r).product_name = 'Café « spécial » — 漢字 😀'))).toEqual([]);
  });

  it('requires card_last4 to be exactly 4 digits', () => {
    expect(tradeProblems((r) => (payment(r, 1).card_last4 = '0000'))).toEqual([]);
    for (const value of ['123', '12345', 'abcd', '12 4']) {
      expect(tradeProblems((r) => (payment(r, 1).card_last4 = value))).toEqual([
        { path: '/trade_records/0/payments/1/card_last4', message: 'must be exactly 4 digits' },
      ]);
    }
  });

  it('requires at least one item and at least one record, but allows no payments', () => {
    expect(tradeProblems((r) => (r.items = []))).toEqual([{ path: '/trade_records/0/items', message: 'must hold at least 1 item(s)' }]);
    expect(tradeProblems((_, b) => (b.trade_records = []))[0]?.path).toBe('/trade_records');
    expect(tradeProblems((r) => (r.payments = []))).toEqual([]);
  });

  it('bounds integers: version >= 1, batch_seq >= 1, counts >= 0, nothing above 2^53 - 1', () => {
    expect(tradeProblems((r) => (r.version = 0))[0]?.path).toBe('/trade_records/0/version');
    expect(tradeProblems((r) => (r.version = Number.MAX_SAFE_INTEGER))).toEqual([]);
    expect(tradeProblems((r) => (r.version = 2 ** 53))[0]?.message).toBe('must be an integer from 1 to 9007199254740991');
    expect(tradeProblems((r) => (r.version = 1.5))[0]?.message).toBe('must be an integer from 1 to 9007199254740991');
    expect(tradeProblems((_, b) => (b.batch_seq = 0))[0]?.path).toBe('/batch_seq');
    expect(tradeProblems((r) => (r.guest_count = -1))[0]?.path).toBe('/trade_records/0/guest_count');
    expect(tradeProblems((r) => (r.guest_count = 0))).toEqual([]);
    expect(tradeProblems((r) => (item(r).line_no = 0))[0]?.path).toBe('/trade_records/0/items/0/line_no');
  });

  it('rejects 2^53 + 1 as sent in the raw JSON', () => {
    const text = JSON.stringify(buildTradeRecordBatch()).replace('"version":1', '"version":9007199254740993');
    const parsed = parseJsonBody(new TextEncoder().encode(text));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(validator.validate('tradeRecords', parsed.value)[0]?.path).toBe('/trade_records/0/version');
  });

  it('reports every problem of a body at once, one per location', () => {
    const problems = tradeProblems((r) => {
      r.status = 'X';
      r.currency = 'usd';
      delete r.items;
      payment(r).amount = 5;
    });
    expect(problems.map((p) => p.path).sort()).toEqual([
      '/trade_records/0/currency',
      '/trade_records/0/items',
      '/trade_records/0/payments/0/amount',
      '/trade_records/0/status',
    ]);
  });

  it('never quotes the submitted value', () => {
    const secret = 'leak-me-please';
    const problems = tradeProblems((r) => {
      r.status = secret;
      r.opened_at = secret;
      r.currency = secret;
      r.version = secret;
      item(r).quantity = secret;
    });
    expect(problems).toHaveLength(5);
    expect(JSON.stringify(problems)).not.toContain(secret);
  });
});

describe('createBodyValidator: daily-close', () => {
  const close = () => JSON.parse(JSON.stringify(buildDailyClose())) as Record<string, unknown>;

  it('requires every field and rejects unknown ones', () => {
    const body = close();
    delete body.tip_amount;
    body.note = 'x';
    expect(
      validator
        .validate('dailyClose', body)
        .map((p) => p.path)
        .sort(),
    ).toEqual(['/note', '/tip_amount']);
  });

  it('rejects negative counts and malformed amounts', () => {
    const body = close();
    body.item_row_count = -1;
    body.net_sales_amount = '35,91';
    expect(
      validator
        .validate('dailyClose', body)
        .map((p) => p.path)
        .sort(),
    ).toEqual(['/item_row_count', '/net_sales_amount']);
  });

  it('rejects a closed_at without offset', () => {
    const body = close();
    body.closed_at = '2026-03-02T03:55:00';
    expect(validator.validate('dailyClose', body)[0]?.path).toBe('/closed_at');
  });
});

describe('createBodyValidator: stores', () => {
  const stores = () => JSON.parse(JSON.stringify(buildStoreBatch())) as { batch_id: string; stores: Record<string, unknown>[] };

  it('requires at least one store', () => {
    expect(validator.validate('stores', { batch_id: buildStoreBatch().batch_id, stores: [] })[0]?.path).toBe('/stores');
  });

  it.each([['00:00'], ['04:00'], ['23:59']])('accepts workday_start %s', (value) => {
    const body = stores();
    body.stores[0]!.workday_start = value;
    expect(validator.validate('stores', body)).toEqual([]);
  });

  it.each([['24:00'], ['4:00'], ['04:60'], ['04:00:00'], ['0400']])('rejects workday_start %s', (value) => {
    const body = stores();
    body.stores[0]!.workday_start = value;
    expect(validator.validate('stores', body)).toEqual([
      { path: '/stores/0/workday_start', message: 'must be a time HH:mm from 00:00 to 23:59' },
    ]);
  });

  it('rejects a lower-case country code, a bad status and a missing prices_include_tax', () => {
    const body = stores();
    body.stores[1]!.country_code = 'jp';
    body.stores[1]!.status = 'CLOSED';
    delete body.stores[1]!.prices_include_tax;
    expect(
      validator
        .validate('stores', body)
        .map((p) => p.path)
        .sort(),
    ).toEqual(['/stores/1/country_code', '/stores/1/prices_include_tax', '/stores/1/status']);
  });
});

describe('createBodyValidator: products', () => {
  const products = () => JSON.parse(JSON.stringify(buildProductBatch())) as Record<string, Record<string, unknown>[]>;

  it('requires at least one locale in a localized text and locale-shaped keys', () => {
    const body = products();
    body.products![0]!.name = {};
    body.products![1]!.name = { en_US: 'x', 'en-US': 'ok' };
    body.products![2]!.name = { '__proto__ <b>': 'x' };
    const problems = validator.validate('products', body);
    expect(problems).toEqual([
      { path: '/products/0/name', message: stringMatching(/at least one locale/) },
      { path: '/products/1/name/en_US', message: 'key must be a BCP 47 locale tag such as en-US' },
      { path: '/products/2/name', message: 'holds a key that is not a BCP 47 locale tag' },
    ]);
  });

  it('requires options in a modifier group and rejects a bad product_type', () => {
    const body = products();
    body.modifier_groups![0]!.options = [];
    body.products![0]!.product_type = 'SET';
    expect(validator.validate('products', body).map((p) => p.path)).toEqual(['/products/0/product_type', '/modifier_groups/0/options']);
  });

  it('refuses control characters in a localized text, naming the locale', () => {
    const body = products();
    body.products![0]!.name = { 'en-US': 'Burger\u0007', 'ja-JP': 'バーガー' };
    expect(validator.validate('products', body)).toEqual([
      { path: '/products/0/name/en-US', message: 'must be at most 500 characters without control characters' },
    ]);
  });

  it('accepts a null store_id and a version of 0, and rejects a negative version', () => {
    const body = products();
    body.products![0]!.store_id = null;
    expect(validator.validate('products', body)).toEqual([]);
    body.products![0]!.version = 0;
    expect(validator.validate('products', body)).toEqual([]);
    body.products![0]!.version = -1;
    expect(validator.validate('products', body)[0]?.path).toBe('/products/0/version');
  });
});

describe('createBodyValidator: mappings', () => {
  it('requires 1 to 10,000 entries', () => {
    const batchId = buildMappingBatch().batch_id;
    const entries = (n: number) => Array.from({ length: n }, (_, i) => ({ source_code: `C${i}`, standard_code: 'SALE' }));
    expect(validator.validate('mappings', { batch_id: batchId, mappings: [] })[0]?.path).toBe('/mappings');
    expect(validator.validate('mappings', { batch_id: batchId, mappings: entries(10_000) })).toEqual([]);
    expect(validator.validate('mappings', { batch_id: batchId, mappings: entries(10_001) })).toEqual([
      { path: '/mappings', message: 'must hold at most 10000 items' },
    ]);
  });

  it('requires source_code and standard_code', () => {
    const problems = validator.validate('mappings', { batch_id: buildMappingBatch().batch_id, mappings: [{ source_name: 'x' }] });
    expect(problems.map((p) => p.path).sort()).toEqual(['/mappings/0/source_code', '/mappings/0/standard_code']);
  });
});
