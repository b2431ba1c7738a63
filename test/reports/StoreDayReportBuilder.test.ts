import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeRecord, TradeRecordBatch } from '../../src/domain/model/payloads.js';
import { contractRules, independentTotals, toMinor } from '../support/independentTotals.js';
import { jpyDay, usdDay } from '../domain/reconciliation/storeDays.js';
import { ReportDataError } from '../../src/reports/ReportDataError.js';
import { DuckDb, dataset, text } from '../support/duckDb.js';
import { buildStoreDay, writeStoreDay } from './reportFiles.js';

/*
 * The two hand-checked store-days of the reconciliation tests (USD, tax excluded, with a combo, a
 * voided line, a refund, a return, an exchange, a deposit taken and applied, a split bill with an
 * ADJUSTMENT; JPY, tax included, with a combo, a refund and an exchange at equal price) are written
 * as report files and read back with DuckDB. Every total is compared, to the minor unit, with the
 * independent integer computation the reconciliation tests use.
 */

const partnerId = 'acme';
const businessDate = '2026-11-20';

/** A currency amount as DuckDB prints a DECIMAL(…, 4): "12.34" → "12.3400", "-640" → "-640.0000". */
function atScale4(text: string): string {
  const [whole, fraction = ''] = text.split('.');
  return `${whole}.${fraction.padEnd(4, '0')}`;
}

let root: string;
let db: DuckDb;
/** USD with the exchange code left out of the mapping: U7 is held back. */
const usdMappingWithoutExchange = Object.fromEntries(Object.entries(usdDay.mapping).filter(([code]) => code !== 'EX'));

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'report-files-'));
  const usd = await buildStoreDay({ partnerId, storeId: 'SEA-001', businessDate, ...usdDay });
  const jpy = await buildStoreDay({ partnerId, storeId: 'TKY-001', businessDate, ...jpyDay, rowGroupRows: 3 });
  const held = await buildStoreDay({ partnerId: 'held', storeId: 'SEA-001', businessDate, ...usdDay, mapping: usdMappingWithoutExchange });
  writeStoreDay(root, partnerId, 'SEA-001', businessDate, usd);
  writeStoreDay(root, partnerId, 'TKY-001', businessDate, jpy);
  writeStoreDay(root, 'held', 'SEA-001', businessDate, held);
  db = await DuckDb.open();
});

afterAll(() => {
  db.close();
  rmSync(root, { recursive: true, force: true });
});

describe.each([
  { name: 'USD', storeId: 'SEA-001', day: usdDay },
  { name: 'JPY', storeId: 'TKY-001', day: jpyDay },
])('$name store-day read with DuckDB', ({ storeId, day }) => {
  const where = `partner_id = '${partnerId}' AND store_id = '${storeId}'`;
  const expected = () => independentTotals(day.finalRecords, contractRules(day.digits, day.mapping));

  it('net sales, tax and tip over the revenue transactions equal the independent totals exactly', async () => {
    const row = await db.row(
      `SELECT sum(net_sales) FILTER (WHERE is_revenue) AS net, sum(tax_amount) FILTER (WHERE is_revenue) AS tax,
              sum(tip_amount) FILTER (WHERE is_revenue) AS tip, count(*) AS n, sum(item_row_count) AS items, sum(payment_row_count) AS payments
       FROM ${dataset(root, 'sales_transactions')} WHERE ${where}`,
    );
    const totals = expected();
    expect(row).toEqual({
      net: atScale4(totals.net_sales_amount),
      tax: atScale4(totals.tax_amount),
      tip: atScale4(totals.tip_amount),
      n: String(totals.trade_record_count),
      items: String(totals.item_row_count),
      payments: String(totals.payment_row_count),
    });
    // And the reconciliation's hand-checked figures, for good measure.
    expect(row.net).toBe(atScale4(day.handChecked.net_sales_amount));
  });

  it('Σ signed_amount of the payments is the payment total; each transaction carries its own', async () => {
    const payments = await db.row(
      `SELECT sum(signed_amount) AS total, count(*) AS n FROM ${dataset(root, 'sales_payments')} WHERE ${where}`,
    );
    const perTransaction = await db.row(
      `SELECT sum(payment_total_amount) AS total FROM ${dataset(root, 'sales_transactions')} WHERE ${where}`,
    );
    expect(payments).toEqual({ total: atScale4(expected().payment_total_amount), n: String(expected().payment_row_count) });
    expect(perTransaction.total).toBe(payments.total);
  });

  it('one line row per item row; the lines that are not voided add up to each subtotal as sent', async () => {
    const lines = await db.rows(
      `SELECT trade_record_id, sum(line_amount) FILTER (WHERE NOT is_voided) AS lines, count(*) AS n
       FROM ${dataset(root, 'sales_lines')} WHERE ${where} GROUP BY trade_record_id ORDER BY trade_record_id`,
    );
    const records = [...day.finalRecords].sort((a, b) => (a.trade_record_id < b.trade_record_id ? -1 : 1));
    expect(lines).toEqual(
      records.map((r) => {
        const notVoided = r.items.filter((i) => !i.is_voided).reduce((sum, i) => sum + toMinor(i.line_amount, day.digits), 0);
        return {
          trade_record_id: r.trade_record_id,
          lines: r.items.some((i) => !i.is_voided) ? atScale4((notVoided / 10 ** day.digits).toFixed(day.digits)) : null,
          n: String(r.items.length),
        };
      }),
    );
  });

  it('every amount column is an exact DECIMAL(18,4), never a floating type', async () => {
    for (const name of ['sales_transactions', 'sales_lines', 'sales_payments']) {
      const columns = await db.rows(`DESCRIBE SELECT * FROM ${dataset(root, name)}`);
      const types = new Map(columns.map((c) => [c.column_name, c.column_type]));
      expect([...types.values()].filter((t) => /DOUBLE|FLOAT|REAL/.test(text(t) ?? ''))).toEqual([]);
      for (const amount of ['total_amount', 'net_sales', 'amount', 'signed_amount', 'line_amount', 'unit_price']) {
        if (types.has(amount)) expect(types.get(amount), `${name}.${amount}`).toBe('DECIMAL(18,4)');
      }
      if (types.has('quantity')) expect(types.get('quantity')).toBe('DECIMAL(18,6)');
    }
  });
});

describe('USD and JPY read together', () => {
  it('group by currency: each total exact in its own currency', async () => {
    const rows = await db.rows(
      `SELECT currency, sum(net_sales) FILTER (WHERE is_revenue) AS net, sum(tax_amount) FILTER (WHERE is_revenue) AS tax
       FROM ${dataset(root, 'sales_transactions')} WHERE partner_id = '${partnerId}' GROUP BY currency ORDER BY currency`,
    );
    expect(rows).toEqual([
      { currency: 'JPY', net: '10022.0000', tax: '988.0000' },
      { currency: 'USD', net: '299.6300', tax: '28.8700' },
    ]);
  });

  it('partition columns are readable and equal to the path values', async () => {
    const rows = await db.rows(
      `SELECT DISTINCT partner_id, CAST(business_date AS VARCHAR) AS business_date, store_id
       FROM ${dataset(root, 'sales_lines')} WHERE partner_id = '${partnerId}' ORDER BY store_id`,
    );
    expect(rows).toEqual([
      { partner_id: partnerId, business_date: businessDate, store_id: 'SEA-001' },
      { partner_id: partnerId, business_date: businessDate, store_id: 'TKY-001' },
    ]);
    const types = new Map(
      (await db.rows(`DESCRIBE SELECT * FROM ${dataset(root, 'sales_lines')}`)).map((c) => [c.column_name, c.column_type]),
    );
    expect([types.get('partner_id'), types.get('business_date'), types.get('store_id')]).toEqual(['VARCHAR', 'DATE', 'VARCHAR']);
  });
});

describe('what the lines and payments say', () => {
  const sql = (name: string, where: string) => `SELECT * FROM ${dataset(root, name)} WHERE partner_id = '${partnerId}' AND ${where}`;

  it('combo children point at their combo line and are flagged; the voided line is flagged', async () => {
    const u1 = await db.rows(
      `SELECT line_no, parent_line_no, is_combo_child, is_voided, product_type, unit_price FROM ${dataset(root, 'sales_lines')}
       WHERE partner_id = '${partnerId}' AND trade_record_id = 'U1' ORDER BY line_no`,
    );
    expect(u1).toEqual([
      { line_no: '1', parent_line_no: null, is_combo_child: false, is_voided: false, product_type: 'COMBO', unit_price: '10.4900' },
      { line_no: '2', parent_line_no: '1', is_combo_child: true, is_voided: false, product_type: 'SINGLE', unit_price: '0.0000' },
      { line_no: '3', parent_line_no: '1', is_combo_child: true, is_voided: false, product_type: 'SIDE', unit_price: '0.0000' },
      { line_no: '4', parent_line_no: '1', is_combo_child: true, is_voided: false, product_type: 'DRINK', unit_price: '0.0000' },
      { line_no: '5', parent_line_no: null, is_combo_child: false, is_voided: false, product_type: 'SINGLE', unit_price: '6.1900' },
      { line_no: '6', parent_line_no: null, is_combo_child: false, is_voided: true, product_type: 'SINGLE', unit_price: '1.9900' },
    ]);
  });

  it('a refund keeps its negative amounts and quantities; its payment counts against the total', async () => {
    const [refund] = await db.rows(
      `SELECT standard_type, total_amount, tax_amount, net_sales FROM (${sql('sales_transactions', "trade_record_id = 'U5'")})`,
    );
    expect(refund).toEqual({ standard_type: 'REFUND', total_amount: '-6.8200', tax_amount: '-0.6300', net_sales: '-6.1900' });
    const [line] = await db.rows(`SELECT quantity, line_amount FROM (${sql('sales_lines', "trade_record_id = 'U5'")})`);
    expect(line).toEqual({ quantity: '-1.000000', line_amount: '-6.1900' });
    const [payment] = await db.rows(
      `SELECT payment_type, amount, direction, signed_amount FROM (${sql('sales_payments', "trade_record_id = 'U5'")})`,
    );
    expect(payment).toEqual({ payment_type: 'REFUND', amount: '6.8200', direction: '-1', signed_amount: '-6.8200' });
  });

  it('an exchange has a returned line and a new line; the deposit is not revenue and its application counts 0', async () => {
    const exchange = await db.rows(`SELECT quantity, line_amount FROM (${sql('sales_lines', "trade_record_id = 'U7'")}) ORDER BY line_no`);
    expect(exchange).toEqual([
      { quantity: '-1.000000', line_amount: '-15.0000' },
      { quantity: '1.000000', line_amount: '25.0000' },
    ]);
    const [deposit] = await db.rows(
      `SELECT standard_type, is_revenue, payment_total_amount FROM (${sql('sales_transactions', "trade_record_id = 'U8'")})`,
    );
    expect(deposit).toEqual({ standard_type: 'DEPOSIT', is_revenue: false, payment_total_amount: '50.0000' });
    const applied = await db.rows(
      `SELECT payment_type, direction, signed_amount FROM (${sql('sales_payments', "trade_record_id = 'U10'")}) ORDER BY payment_id`,
    );
    expect(applied).toEqual([
      { payment_type: 'DEPOSIT_APPLIED', direction: '0', signed_amount: '0.0000' },
      { payment_type: 'SALE', direction: '1', signed_amount: '166.4500' },
    ]);
  });

  it('timestamps keep the instant (UTC) and the store wall-clock time', async () => {
    const [u1] = await db.rows(
      `SELECT epoch_us(opened_at) AS utc, strftime(opened_at_local, '%Y-%m-%d %H:%M:%S') AS local, typeof(opened_at) AS t, typeof(opened_at_local) AS tl
       FROM (${sql('sales_transactions', "trade_record_id = 'U1'")})`,
    );
    expect(u1).toEqual({
      utc: String(Date.parse('2026-11-20T19:50:00Z') * 1000),
      local: '2026-11-20 11:50:00',
      t: 'TIMESTAMP WITH TIME ZONE',
      tl: 'TIMESTAMP',
    });
  });
});

describe('a code without a mapping', () => {
  const held = (name: string) => `FROM ${dataset(root, name)} WHERE partner_id = 'held'`;

  it('holds its transaction back: not in the sales tables, in unmapped_transactions with its figures', async () => {
    expect(
      await db.row(`SELECT count(*) FILTER (WHERE trade_record_id = 'U7') AS n, count(*) AS all ${held('sales_transactions')}`),
    ).toEqual({
      n: '0',
      all: '13',
    });
    expect(await db.row(`SELECT count(*) AS n ${held('sales_lines')} AND trade_record_id = 'U7'`)).toEqual({ n: '0' });
    expect(await db.row(`SELECT count(*) AS n ${held('sales_payments')} AND trade_record_id = 'U7'`)).toEqual({ n: '0' });
    expect(
      await db.rows(
        `SELECT trade_record_id, source_transaction_type, unmapped_reason, mapped_standard_code, net_sales, payment_total_amount ${held('unmapped_transactions')}`,
      ),
    ).toEqual([
      {
        trade_record_id: 'U7',
        source_transaction_type: 'EX',
        unmapped_reason: 'NO_MAPPING',
        mapped_standard_code: null,
        net_sales: '10.0000',
        payment_total_amount: '11.0300',
      },
    ]);
  });

  it('sales totals equal the independent totals under the same mapping; payments held back add up to the whole day', async () => {
    const rules = contractRules(2, usdMappingWithoutExchange);
    const totals = independentTotals(usdDay.finalRecords, rules);
    expect(await db.row(`SELECT sum(net_sales) FILTER (WHERE is_revenue) AS net ${held('sales_transactions')}`)).toEqual({
      net: atScale4(totals.net_sales_amount),
    });
    const sales = await db.row(`SELECT sum(signed_amount) AS total ${held('sales_payments')}`);
    const unmapped = await db.row(`SELECT sum(payment_total_amount) AS total ${held('unmapped_transactions')}`);
    expect(toMinor(text(sales.total) ?? '', 4) + toMinor(text(unmapped.total) ?? '', 4)).toBe(
      toMinor(atScale4(totals.payment_total_amount), 4),
    );
  });

  it('one partner never shows up under another: every row of a partner lies below its own partner_id path', async () => {
    const rows = await db.rows(
      `SELECT DISTINCT partner_id, filename LIKE '%/partner_id=' || partner_id || '/%' AS own FROM read_parquet('${root}/*/**/*.parquet', hive_partitioning = true, filename = true, union_by_name = true)`,
    );
    expect(rows.sort((a, b) => (text(a.partner_id) ?? '').localeCompare(text(b.partner_id) ?? ''))).toEqual([
      { partner_id: partnerId, own: true },
      { partner_id: 'held', own: true },
    ]);
  });
});

/** The first batch of the USD day, holding just this record. */
function alone(record: TradeRecord): { batches: TradeRecordBatch[]; finalRecords: TradeRecord[] } {
  const [batch] = usdDay.batches;
  if (!batch) throw new Error('the USD day has no batch');
  return { batches: [{ ...batch, trade_records: [record] }], finalRecords: [record] };
}

function recordOf(id: string): TradeRecord {
  const record = usdDay.finalRecords.find((r) => r.trade_record_id === id);
  if (!record) throw new Error(`no record ${id}`);
  return record;
}

describe('a value the files cannot hold exactly', () => {
  it('is refused with the column and the transaction named, never the value, and nothing is rounded', async () => {
    const huge = { ...recordOf('U1'), total_amount: '123456789012345.00' };
    const build = buildStoreDay({ partnerId, storeId: 'SEA-001', businessDate, mapping: usdDay.mapping, ...alone(huge) });
    await expect(build).rejects.toThrow(ReportDataError);
    await expect(build).rejects.toThrow(
      /^total_amount of trade_records\[0\] of batch 6f1c1e0e-3f57-4d7c-9a43-0d9a1b1c0001 does not fit DECIMAL\(18, 4\)/,
    );
    await expect(build).rejects.not.toThrow(/123456789012345/);
  });

  it('a line quantity with more places than the column keeps is refused, not rounded', async () => {
    const record = recordOf('U2');
    const fine = { ...record, items: record.items.map((item) => ({ ...item, quantity: '0.1234567' })) };
    const build = buildStoreDay({ partnerId, storeId: 'SEA-001', businessDate, mapping: usdDay.mapping, ...alone(fine) });
    await expect(build).rejects.toThrow(/^sales_lines\.quantity of trade_records\[0\] .* DECIMAL\(18, 6\)/);
  });
});
