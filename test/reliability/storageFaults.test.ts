import { describe, expect, it } from 'vitest';
import { printFigures } from './support/dayScenario.js';
import { chaosSettings } from './support/random.js';
import { runStorageFaults } from './support/storageFaults.js';

const { runs, seed } = chaosSettings(8);

describe('5–20 % of storage requests fail (500, 503, timeouts, lost responses)', () => {
  it(`the SDK retries, the partner sees 503 at worst, nothing is committed partially (${runs} runs, seed ${seed})`, async () => {
    const report = await runStorageFaults(Math.min(runs, 8), seed);
    printFigures(`storage faults: ${Math.min(runs, 8)} runs, seed ${seed}, ${report.seconds} s`, report.figures, report.statuses);
    expect(report.failures).toEqual([]);
    expect(report.figures.lost + report.figures.appliedTwice + report.figures.unfinished + report.figures.partialCommits).toBe(0);
    expect(report.figures.answers5xxOther).toBe(0);
    expect(report.figures.faultsInjected).toBeGreaterThan(0);
  }, 300_000); // A bound against a hang, not a speed check: seeded runs share the machine's cores.
});
