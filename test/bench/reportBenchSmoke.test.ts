import { describe, expect, it } from 'vitest';
import { runReportBench, smokeReportScale } from '../../bench/runReportBench.js';

describe('npm run bench:reports at smoke size', () => {
  it('writes the report files next to the reconciliation and prints every figure', async () => {
    const lines: string[] = [];
    const figures = await runReportBench({ scale: smokeReportScale, out: (line) => lines.push(line), progress: () => undefined });
    const bench = new Map(lines.filter((l) => l.startsWith('BENCH ')).map((l) => [l.split(' ')[1], Number(l.split(' ')[2])]));
    expect(bench.size).toBe(figures.length);
    for (const name of [
      'report_reconcile_60_ms',
      'report_reconcile_write_60_ms',
      'report_write_60_ratio',
      'report_reconcile_convert_60_ms',
      'report_write_unstaged_60_ratio',
      'report_rebuild_60_ms',
      'report_stage_batch_ms',
      'report_fragment_batch_kib',
    ]) {
      expect(Number.isFinite(bench.get(name)), name).toBe(true);
    }
    expect(bench.get('report_files_60_kib')).toBeGreaterThan(0);
    expect(lines.join('\n')).toMatch(/reconcile \+ write the report files \(MATCHED\)/);
    expect(lines.join('\n')).toMatch(/write the report files alone, listing the index \(written, 3 staged \/ 0 converted\)/);
  });
});
