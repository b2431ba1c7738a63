import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodePartitionValue, encodePartitionValue, encodePartitionValueCompactly } from '../../src/reports/encodePartitionValue.js';
import { loadParquetWriter } from '../../src/reports/loadParquetWriter.js';
import { ParquetFileBuilder } from '../../src/reports/ParquetFileBuilder.js';
import { partnerPrefix, storeDayBlobName, storeDayMarkerName, storeDaysBlobName } from '../../src/reports/reportBlobName.js';
import { reportColumns } from '../../src/reports/reportColumns.js';
import { ReportDataError } from '../../src/reports/ReportDataError.js';
import { DuckDb, text } from '../support/duckDb.js';

/** Ids of 128 characters (the most an identifier has) whose usual encoding is too long for a blob name. */
const longIds = ['★'.repeat(128), '😀'.repeat(128), '。'.repeat(128), '\u{E0041}'.repeat(128), `${'😀'.repeat(127)}.`];

/** Ids a partner or HQ may use that a path cannot hold as they are. */
const hostile = [
  'A/B',
  '..',
  '.',
  'a.',
  'store=1/partner_id=other',
  '%41 already escaped',
  '100%',
  'back\\slash',
  'q?x#y&z+w',
  'tab\there',
  'line\nbreak',
  '\u0081c1 control',
  'zero\u200bwidth',
  'private\ue000use',
  '東京駅前店',
  'café',
  'Ωmega-٣',
  '🍔 burger',
  'o\'neil "quoted"',
  '__HIVE_DEFAULT_PARTITION__',
  'NULL',
  'null',
  'Null',
  '001',
  '2026-11-20',
];

describe('encodePartitionValue', () => {
  it.each(['SEA-001', 'store_7', 'v1.2', 'ABC.def-09'])('leaves a plain code %s as it is', (value) => {
    expect(encodePartitionValue(value)).toBe(value);
  });

  it('keeps letters and digits of any script, encodes the rest byte by byte', () => {
    expect(encodePartitionValue('東京駅前店')).toBe('東京駅前店');
    expect(encodePartitionValue('A/B')).toBe('A%2FB');
    expect(encodePartitionValue('a b=c%')).toBe('a%20b%3Dc%25');
    expect(encodePartitionValue('a.')).toBe('a%2E');
    expect(encodePartitionValue('🍔')).toBe('%F0%9F%8D%94');
    expect(encodePartitionValue('\u200b')).toBe('%E2%80%8B');
    expect(encodePartitionValue('__HIVE_DEFAULT_PARTITION__')).toBe('%5F_HIVE_DEFAULT_PARTITION__');
    expect(encodePartitionValue('Null')).toBe('%4Eull');
  });

  it.each(hostile)('round-trips %j and yields one safe path segment', (value) => {
    const encoded = encodePartitionValue(value);
    expect(decodePartitionValue(encoded)).toBe(value);
    expect(encoded).not.toMatch(/[/\\=?#&+\s\p{Cc}]/u);
    expect(encoded).not.toMatch(/\.$/);
    expect(encoded).toMatch(/^(?:[A-Za-z0-9_.\-\p{L}\p{M}\p{N}]|%[0-9A-F]{2})+$/u);
  });

  it('refuses what it cannot encode reversibly', () => {
    expect(() => encodePartitionValue('')).toThrow(RangeError);
    expect(() => encodePartitionValue('lone \ud800 surrogate')).toThrow(RangeError);
  });
});

describe('report blob names', () => {
  it('put the partner first, then the date, then the store', () => {
    expect(storeDayBlobName('sales_lines', 'acme', '2026-11-20', 'A/B')).toBe(
      'sales_lines/partner_id=acme/business_date=2026-11-20/store_id=A%2FB/part-0.parquet',
    );
    expect(storeDaysBlobName('acme', '2026-11-20')).toBe('store_days/partner_id=acme/business_date=2026-11-20/part-0.parquet');
  });

  it("no partner's prefix is a prefix of another partner's", () => {
    expect(storeDayBlobName('sales_transactions', 'acme2', '2026-11-20', 'S').startsWith(partnerPrefix('sales_transactions', 'acme'))).toBe(
      false,
    );
  });

  it('encodes a store id compactly only where its usual encoding would make the name too long for a blob', () => {
    const partner = 'p'.repeat(64);
    for (const longId of longIds) {
      const name = storeDayBlobName('unmapped_transactions', partner, '2026-11-20', longId);
      expect(name.length).toBeLessThanOrEqual(1024);
      const value = /store_id=(.*)\/part-0\.parquet$/.exec(name)?.[1] ?? '';
      expect(value).not.toBe(encodePartitionValue(longId));
      expect(decodePartitionValue(value)).toBe(longId);
      expect(storeDayMarkerName(partner, '2026-11-20', longId).length).toBeLessThanOrEqual(1024);
    }
    // 70 emoji still fit the usual way: the name of a file already written never changes.
    const fits = '😀'.repeat(70);
    expect(storeDayBlobName('unmapped_transactions', 'acme', '2026-11-20', fits)).toContain(`store_id=${encodePartitionValue(fits)}/`);
    expect(encodePartitionValueCompactly('★ A/B.')).toBe('★%20A%2FB%2E');
    expect(encodePartitionValueCompactly('null')).toBe('%6Eull');
  });

  it('refuses a name that even the compact encoding cannot fit, without naming the id', () => {
    const tooLong = '/'.repeat(400);
    expect(() => storeDayBlobName('sales_transactions', 'acme', '2026-11-20', tooLong)).toThrow(ReportDataError);
    expect(() => storeDayBlobName('sales_transactions', 'acme', '2026-11-20', tooLong)).toThrow(/characters long/);
    expect(() => storeDayBlobName('sales_transactions', 'acme', '2026-11-20', tooLong)).not.toThrow(/\/\/\//);
  });
});

describe('hostile store ids read back by DuckDB', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'report-paths-'));
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('the partition value in the path decodes to the exact id, which equals the column in the file', async () => {
    const module = await loadParquetWriter();
    // A long id's compact path cannot be a local file (a name holds 255 bytes): a short id stands in.
    const compact = '★ A/B。\u{E0041}.';
    for (const storeId of [...hostile, compact]) {
      const file = new ParquetFileBuilder(module, {
        dataset: 'store_days',
        columns: reportColumns.store_days.filter((c) => c.name === 'store_id' || c.name === 'status'),
      });
      file.append({ store_id: storeId, status: 'MATCHED' });
      const blobName =
        storeId === compact
          ? `sales_transactions/partner_id=acme/business_date=2026-11-20/store_id=${encodePartitionValueCompactly(storeId)}/part-0.parquet`
          : storeDayBlobName('sales_transactions', 'acme', '2026-11-20', storeId);
      const name = path.join(root, blobName);
      mkdirSync(path.dirname(name), { recursive: true });
      writeFileSync(name, file.finish() ?? new Uint8Array());
    }
    const db = await DuckDb.open();
    try {
      const fromPath = await db.rows(
        `SELECT store_id FROM read_parquet('${root}/sales_transactions/**/*.parquet', hive_partitioning = true) ORDER BY store_id`,
      );
      expect(fromPath.map((r) => text(r.store_id)).sort()).toEqual([...hostile, compact].sort());
      const pathOnly = await db.rows(
        `SELECT DISTINCT store_id FROM read_parquet('${root}/sales_transactions/**/*.parquet', hive_partitioning = true, hive_types = {'store_id': VARCHAR}) ORDER BY store_id`,
      );
      expect(pathOnly.map((r) => text(r.store_id)).sort()).toEqual([...hostile, compact].sort());
    } finally {
      db.close();
    }
  });
});
