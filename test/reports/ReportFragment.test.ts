import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeRecordBatch } from '../../src/domain/model/payloads.js';
import { assembleParquetFile } from '../../src/reports/assembleParquetFile.js';
import { buildReportFragment } from '../../src/reports/buildReportFragment.js';
import { loadParquetFooterWriter, loadParquetWriter } from '../../src/reports/loadParquetWriter.js';
import { ParquetFooterEncoder } from '../../src/reports/ParquetFooterEncoder.js';
import { shiftRowGroup, type ParquetPart } from '../../src/reports/ParquetFileBuilder.js';
import { parquetSchema } from '../../src/reports/parquetSchema.js';
import { reportColumns } from '../../src/reports/reportColumns.js';
import { storeDayDatasets } from '../../src/reports/reportDatasets.js';
import { decodeFragment, encodeFragment, type ReportFragment } from '../../src/reports/ReportFragment.js';
import { ReportSourceError } from '../../src/reports/ReportSourceError.js';
import { SalesAccumulator } from '../../src/reports/StoreDaySales.js';
import { jpyDay, usdDay } from '../domain/reconciliation/storeDays.js';
import { DuckDb } from '../support/duckDb.js';
import { buildStoreDay } from './reportFiles.js';

/*
 * A store-day assembled from per-batch fragments (encoded to blobs and decoded again, row groups
 * copied, one footer) must read exactly as the same store-day built in one pass: same rows, same
 * types, same answers to filters that use the row groups' statistics.
 */

const partnerId = 'acme';
const businessDate = '2026-11-20';
const withoutExchange = Object.fromEntries(Object.entries(usdDay.mapping).filter(([code]) => code !== 'EX'));
const days = [
  { name: 'usd', storeId: 'SEA-001', day: usdDay, mapping: withoutExchange },
  { name: 'jpy', storeId: 'TKY-001', day: jpyDay, mapping: jpyDay.mapping },
] as const;

let root: string;
let db: DuckDb;
let module: Awaited<ReturnType<typeof loadParquetWriter>>;
let writeFooter: Awaited<ReturnType<typeof loadParquetFooterWriter>>;
let encoder: ParquetFooterEncoder;
let fallbacks = 0;
const fragmentsByDay = new Map<string, ReportFragment[]>();

/** The versions of the final records that each batch delivered. */
function selectionOf(batch: TradeRecordBatch, finalRecords: readonly TradeRecordBatch['trade_records'][number][]) {
  return new Map(
    batch.trade_records
      .filter((r) => finalRecords.includes(r))
      .map((r) => [r.trade_record_id, { version: r.version, last_modified_at: r.last_modified_at }] as const),
  );
}

function write(file: string, bytes: Uint8Array | undefined): void {
  if (!bytes) return;
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
}

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'report-fragments-'));
  module = await loadParquetWriter();
  writeFooter = await loadParquetFooterWriter();
  // The library's writer, counted when it writes a footer with row groups: the encoder then fell back to it.
  const library = writeFooter;
  encoder = new ParquetFooterEncoder(
    module,
    (writer, metadata) => {
      if (metadata.row_groups.length > 0) fallbacks += 1;
      library(writer, metadata);
    },
    (await import('hyparquet-writer/src/unconvert.js')).unconvertStatistics,
  );
  for (const { name, storeId, day, mapping } of days) {
    const single = await buildStoreDay({ partnerId, storeId, businessDate, mapping, batches: day.batches, finalRecords: day.finalRecords });
    const fragments = day.batches.map((batch) => {
      const body = Buffer.from(JSON.stringify(batch));
      const built = buildReportFragment(
        module,
        { partnerId, mapping: new Map(Object.entries(mapping)), rowGroupRows: 2 },
        body,
        selectionOf(batch, day.finalRecords),
      );
      // Through the blob format and back, as the staged copy is read.
      const decoded = decodeFragment(encodeFragment(built.fragment));
      if (!decoded) throw new Error('a fragment did not decode');
      return decoded;
    });
    fragmentsByDay.set(name, fragments);
    for (const dataset of storeDayDatasets) {
      const parts = fragments.map((f) => f.parts[dataset]).filter((p): p is ParquetPart => p !== undefined);
      write(
        path.join(root, 'assembled', name, `${dataset}.parquet`),
        assembleParquetFile(module, writeFooter, dataset, reportColumns[dataset], parts),
      );
      write(path.join(root, 'single', name, `${dataset}.parquet`), single.files[dataset]);
    }
  }
  db = await DuckDb.open();
});

afterAll(() => {
  db.close();
  rmSync(root, { recursive: true, force: true });
});

const file = (kind: string, day: string, dataset: string) => `read_parquet('${path.join(root, kind, day, `${dataset}.parquet`)}')`;

describe('a store-day assembled from batch fragments', () => {
  for (const { name } of days) {
    for (const dataset of storeDayDatasets) {
      it(`${name} ${dataset}: the same rows and column types as the one-pass file`, async () => {
        const single = file('single', name, dataset);
        const assembled = file('assembled', name, dataset);
        const exists = await db.rows(`SELECT count(*) AS n FROM glob('${path.join(root, 'single', name, `${dataset}.parquet`)}')`);
        if (exists[0]?.n === '0') {
          expect(await db.rows(`SELECT count(*) AS n FROM glob('${path.join(root, 'assembled', name, `${dataset}.parquet`)}')`)).toEqual([
            { n: '0' },
          ]);
          return;
        }
        expect(await db.rows(`DESCRIBE SELECT * FROM ${assembled}`)).toEqual(await db.rows(`DESCRIBE SELECT * FROM ${single}`));
        expect(await db.rows(`SELECT count(*) AS n FROM ${assembled}`)).toEqual(await db.rows(`SELECT count(*) AS n FROM ${single}`));
        expect(await db.rows(`SELECT * FROM ${assembled} EXCEPT ALL SELECT * FROM ${single}`)).toEqual([]);
        expect(await db.rows(`SELECT * FROM ${single} EXCEPT ALL SELECT * FROM ${assembled}`)).toEqual([]);
      });
    }
  }

  it('filters that prune row groups by their statistics give the one-pass answers', async () => {
    for (const [dataset, where] of [
      ['sales_transactions', "net_sales > 10 AND trade_record_id >= 'U3'"],
      ['sales_lines', "quantity < 0 OR product_id = 'P-FRIES'"],
      ['sales_payments', "paid_at > TIMESTAMPTZ '2026-11-20 19:00:00+00' AND signed_amount <> 0"],
    ] as const) {
      const query = (kind: string) =>
        `SELECT count(*) AS n, string_agg(trade_record_id, ',' ORDER BY trade_record_id) AS ids FROM ${file(kind, 'usd', dataset)} WHERE ${where}`;
      const expected = await db.rows(query('single'));
      expect(Number(expected[0]?.n), where).toBeGreaterThan(0);
      expect(await db.rows(query('assembled'))).toEqual(expected);
    }
  });

  it('keeps one row group per fragment row group, in batch order', async () => {
    const groups = await db.rows(
      `SELECT count(DISTINCT row_group_id) AS n FROM parquet_metadata('${path.join(root, 'assembled', 'usd', 'sales_lines.parquet')}')`,
    );
    const expected = (fragmentsByDay.get('usd') ?? []).reduce((n, f) => n + (f.parts.sales_lines?.rowGroups.length ?? 0), 0);
    expect(groups).toEqual([{ n: String(expected) }]);
  });

  it("the footer encoder writes the library's footer byte for byte", () => {
    let compared = 0;
    for (const { name } of days) {
      for (const dataset of storeDayDatasets) {
        const parts = (fragmentsByDay.get(name) ?? []).map((f) => f.parts[dataset]).filter((p): p is ParquetPart => p !== undefined);
        const library = assembleParquetFile(module, writeFooter, dataset, reportColumns[dataset], parts);
        const encoded = assembleParquetFile(
          module,
          (writer, metadata) => {
            encoder.write(writer, dataset, metadata);
          },
          dataset,
          reportColumns[dataset],
          parts,
        );
        expect(encoded === undefined, `${name} ${dataset}`).toBe(library === undefined);
        if (!library || !encoded) continue;
        expect(Buffer.compare(encoded, library), `${name} ${dataset}`).toBe(0);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(5);
    expect(fallbacks).toBe(0);
  });

  it('the footer encoder writes offsets and counts beyond 32 and 53 bits as the library does', () => {
    const dataset = 'sales_lines';
    const groups = (fragmentsByDay.get('usd') ?? []).flatMap((f) => f.parts[dataset]?.rowGroups ?? []);
    for (const [shift, rows] of [
      [2 ** 40, 5n],
      [2 ** 52, 2n ** 62n],
    ] as const) {
      const metadata = {
        version: 2,
        created_by: 'test',
        schema: parquetSchema(reportColumns[dataset]),
        num_rows: rows,
        row_groups: groups.map((group) => shiftRowGroup(group, shift)),
        key_value_metadata: [{ key: 'k', value: 'v' }],
      } as Parameters<typeof writeFooter>[1];
      const library = new module.ByteWriter();
      writeFooter(library, metadata);
      const encoded = new module.ByteWriter();
      encoder.write(encoded, `big-${String(shift)}`, metadata);
      expect(Buffer.compare(encoded.getBytes(), library.getBytes()), String(shift)).toBe(0);
    }
    expect(fallbacks).toBe(0);
  });

  it("the fragments' totals add up to the day's totals by currency and standard type", () => {
    const sales = new SalesAccumulator();
    for (const fragment of fragmentsByDay.get('usd') ?? []) sales.merge(fragment.sales);
    const { unmapped } = sales.result();
    // U7, the exchange, is held back: its code has no mapping here.
    expect(unmapped.map((u) => [u.source_transaction_type, u.currency, u.transaction_count])).toEqual([['EX', 'USD', 1]]);
  });
});

describe('a fragment blob', () => {
  it('of another format, or not a fragment at all, is not used (the batch is converted again)', () => {
    const fragment = fragmentsByDay.get('jpy')?.[0];
    if (!fragment) throw new Error('no fragment');
    const bytes = encodeFragment(fragment);
    const headerLength = Buffer.from(bytes).readUInt32LE(4);
    const header = JSON.parse(Buffer.from(bytes.subarray(8, 8 + headerLength)).toString('utf8')) as object;
    const other = Buffer.from(JSON.stringify({ ...header, format: 999 }));
    const changed = Buffer.concat([bytes.subarray(0, 4), Buffer.alloc(4), other, bytes.subarray(8 + headerLength)]);
    changed.writeUInt32LE(other.length, 4);
    expect(decodeFragment(changed)).toBeUndefined();
    expect(decodeFragment(Buffer.from('{"trade_records":[]}'))).toBeUndefined();
    expect(decodeFragment(bytes.subarray(0, bytes.length - 1))).toBeUndefined();
  });

  it('a stored body that is not a trade-record batch is a permanent source error', async () => {
    const module = await loadParquetWriter();
    expect(() => buildReportFragment(module, { partnerId, mapping: new Map() }, Buffer.from('{"mappings":[]}'))).toThrow(ReportSourceError);
    expect(() => buildReportFragment(module, { partnerId, mapping: new Map() }, Buffer.from('{'))).toThrow(ReportSourceError);
  });
});
