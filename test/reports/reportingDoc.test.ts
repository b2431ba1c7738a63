import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  AMOUNT_PRECISION,
  AMOUNT_SCALE,
  QUANTITY_PRECISION,
  QUANTITY_SCALE,
  reportColumns,
  type ReportColumn,
} from '../../src/reports/reportColumns.js';
import type { ReportDataset } from '../../src/reports/reportDatasets.js';

/** The README's HQ reporting section lists every column of every dataset, in file order, under the dataset's heading. */
const doc = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

/** Each column type as DuckDB's typeof names it (the README says its types are DuckDB's). */
const duckDbType: Readonly<Record<ReportColumn['type'], string>> = {
  string: 'VARCHAR',
  json: 'VARCHAR',
  amount: `DECIMAL(${AMOUNT_PRECISION},${AMOUNT_SCALE})`,
  quantity: `DECIMAL(${QUANTITY_PRECISION},${QUANTITY_SCALE})`,
  int64: 'BIGINT',
  boolean: 'BOOLEAN',
  date: 'DATE',
  timestamp: 'TIMESTAMP WITH TIME ZONE',
  local_timestamp: 'TIMESTAMP',
};

/** `[name, type]` of each row of the dataset's column table. */
function documentedColumns(dataset: string): [string, string][] {
  const start = doc.indexOf(`\n##### ${dataset}\n`);
  if (start < 0) return [];
  const ends = [doc.indexOf('\n##### ', start + 1), doc.indexOf('\n## ', start + 1)].filter((i) => i >= 0);
  const section = doc.slice(start, ends.length > 0 ? Math.min(...ends) : undefined);
  return [...section.matchAll(/^\| `([a-z_]+)` \| ([^|]+) \|/gm)].map((m) => [m[1] ?? '', m[2] ?? '']);
}

describe('README: HQ reporting', () => {
  it.each(Object.keys(reportColumns) as ReportDataset[])('documents every column of %s, in file order, with its DuckDB type', (dataset) => {
    expect(documentedColumns(dataset)).toEqual(reportColumns[dataset].map((c) => [c.name, duckDbType[c.type]]));
  });
});
