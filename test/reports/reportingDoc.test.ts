import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reportColumns } from '../../src/reports/reportColumns.js';
import type { ReportDataset } from '../../src/reports/reportDatasets.js';

/** docs/reporting.md lists every column of every dataset, in file order, under the dataset's heading. */
const doc = readFileSync(fileURLToPath(new URL('../../docs/reporting.md', import.meta.url)), 'utf8');

function documentedColumns(dataset: string): string[] {
  const start = doc.indexOf(`\n#### ${dataset}\n`);
  if (start < 0) return [];
  const end = doc.indexOf('\n#### ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1] ?? '');
}

describe('docs/reporting.md', () => {
  it.each(Object.keys(reportColumns) as ReportDataset[])('documents every column of %s, in file order', (dataset) => {
    expect(documentedColumns(dataset)).toEqual(reportColumns[dataset].map((c) => c.name));
  });
});
