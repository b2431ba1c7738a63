import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { reportColumns } from '../../src/reports/reportColumns.js';
import type { ReportDataset } from '../../src/reports/reportDatasets.js';

/** The README's HQ reporting section lists every column of every dataset, in file order, under the dataset's heading. */
const doc = readFileSync(fileURLToPath(new URL('../../README.md', import.meta.url)), 'utf8');

function documentedColumns(dataset: string): string[] {
  const start = doc.indexOf(`\n##### ${dataset}\n`);
  if (start < 0) return [];
  const ends = [doc.indexOf('\n##### ', start + 1), doc.indexOf('\n## ', start + 1)].filter((i) => i >= 0);
  const section = doc.slice(start, ends.length > 0 ? Math.min(...ends) : undefined);
  return [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1] ?? '');
}

describe('README: HQ reporting', () => {
  it.each(Object.keys(reportColumns) as ReportDataset[])('documents every column of %s, in file order', (dataset) => {
    expect(documentedColumns(dataset)).toEqual(reportColumns[dataset].map((c) => c.name));
  });
});
