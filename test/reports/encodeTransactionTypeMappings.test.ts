import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { standardTransactionTypes } from '../../src/domain/reference/standardTransactionTypes.js';
import { encodeTransactionTypeMappings } from '../../src/reports/encodeTransactionTypeMappings.js';
import { loadParquetWriter } from '../../src/reports/loadParquetWriter.js';
import { DuckDb } from '../support/duckDb.js';

const folder = mkdtempSync(path.join(tmpdir(), 'mappings-file-'));
afterAll(() => {
  rmSync(folder, { recursive: true, force: true });
});

describe('encodeTransactionTypeMappings', () => {
  it('says when a mapped code is not in the standard list, and writes no file without a mapping', async () => {
    const module = await loadParquetWriter();
    // A list that no longer has VOID: a mapping stored before such a change still names it.
    const withoutVoid = new Map(standardTransactionTypes.data.filter((type) => type.code !== 'VOID').map((type) => [type.code, type]));
    const mapping = {
      batchId: 'b-1',
      updatedAt: '2026-03-01T10:00:00+09:00',
      entries: [
        { source_code: '01', source_name: 'Sale', standard_code: 'SALE' },
        { source_code: '09', standard_code: 'VOID' },
      ],
    };
    const bytes = encodeTransactionTypeMappings(module, 'acme', mapping, withoutVoid, new Date('2026-03-02T00:00:00Z'));
    const file = path.join(folder, 'part-0.parquet');
    writeFileSync(file, bytes ?? new Uint8Array());
    const db = await DuckDb.open();
    try {
      expect(
        await db.rows(
          `SELECT source_transaction_type, source_name, standard_type, is_standard, is_revenue, mapping_updated_at = TIMESTAMPTZ '2026-03-01 01:00:00+00' AS updated_in_utc
           FROM read_parquet('${file}') ORDER BY source_transaction_type`,
        ),
      ).toEqual([
        {
          source_transaction_type: '01',
          source_name: 'Sale',
          standard_type: 'SALE',
          is_standard: true,
          is_revenue: true,
          updated_in_utc: true,
        },
        {
          source_transaction_type: '09',
          source_name: null,
          standard_type: 'VOID',
          is_standard: false,
          is_revenue: null,
          updated_in_utc: true,
        },
      ]);
    } finally {
      db.close();
    }
    expect(encodeTransactionTypeMappings(module, 'acme', undefined, withoutVoid, new Date())).toBeUndefined();
  });
});
