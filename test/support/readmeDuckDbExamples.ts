import { readFileSync } from 'node:fs';

/** What the README's example paths, partner and month stand for in a test. */
export interface ExampleSubstitutes {
  /** The downloaded folder read instead of the container. */
  readonly root: string;
  /** Stands for the example partner `acme`. */
  readonly partnerId: string;
  /** Stands for the example month: the queries look at this day. */
  readonly businessDate: string;
}

/**
 * The queries of the README's DuckDB block, as written but for the paths, the example partner and
 * the example month. The azure extension's set-up statements are left out: the queries read a
 * downloaded copy instead of the storage account.
 */
export function readmeDuckDbExamples({ root, partnerId, businessDate }: ExampleSubstitutes): string[] {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const block = /```sql\n(-- Files copied locally[\s\S]*?)```/.exec(readme)?.[1];
  if (block === undefined) throw new Error("the README's DuckDB block is missing");
  const local = `'${root}/`;
  return block
    .split('\n')
    .filter((line) => !line.startsWith('--'))
    .join('\n')
    .split(/;\s*(?:\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement !== '' && !/^(INSTALL|LOAD|CREATE SECRET)\b/.test(statement))
    .map((statement) =>
      statement
        .replaceAll("'az://reports/", local)
        .replaceAll("'reports/", local)
        .replaceAll('partner_id=acme/', `partner_id=${partnerId}/`)
        .replace("BETWEEN DATE '2026-11-01' AND DATE '2026-11-30'", `BETWEEN DATE '${businessDate}' AND DATE '${businessDate}'`),
    );
}

/** The README's last example: the store-days whose files are not one set. */
export function mixedSetQuery(substitutes: ExampleSubstitutes): string {
  const statements = readmeDuckDbExamples(substitutes);
  const last = statements.at(-1);
  if (!last?.includes('pos.report_files_id')) throw new Error("the README's last DuckDB example is not the mixed-set query");
  return last;
}
