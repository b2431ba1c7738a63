import { describe, expect, it } from 'vitest';
import { runReconciliationsBench, smokeReconciliationsScale } from '../../bench/runReconciliationsBench.js';

describe('npm run bench:reconciliations at smoke size', () => {
  it('reconciles several store-days at once, each MATCHED, and prints every figure', async () => {
    const lines: string[] = [];
    const figures = await runReconciliationsBench({
      scale: smokeReconciliationsScale,
      out: (line) => lines.push(line),
      progress: () => undefined,
    });
    const bench = new Map(lines.filter((l) => l.startsWith('BENCH ')).map((l) => [l.split(' ')[1], Number(l.split(' ')[2])]));
    expect(bench.size).toBe(figures.length);
    for (const k of smokeReconciliationsScale.atOnce) {
      expect(bench.get(`reconcile_40_at_once_${k}_rss`), `rss at ${k}`).toBeGreaterThan(0);
      expect(bench.get(`reconcile_40_at_once_${k}_ms`), `ms at ${k}`).toBeGreaterThan(0);
    }
    const most = Math.max(...smokeReconciliationsScale.atOnce);
    // The most at once again: converting every batch, then warm and cold with the heap sized for an instance.
    for (const name of [`_at_once_${most}_cold_rss`, `_at_once_${most}_rss_instance_heap`, `_at_once_${most}_cold_rss_instance_heap`]) {
      expect(bench.get(`reconcile_40${name}`), name).toBeGreaterThan(0);
    }
    expect(Number.isFinite(bench.get('reconcile_40_rss_per_extra'))).toBe(true);
  }, 120_000);
});
