import { describe, expect, it } from 'vitest';
import { printFigures } from './support/dayScenario.js';
import { chaosSettings } from './support/random.js';
import { runStorageFaults } from './support/storageFaults.js';

const { runs, seed } = chaosSettings(1000);
const faultRuns = Number(process.env.CHAOS_FAULT_RUNS ?? Math.min(runs, 150));

describe('chaos: storage faults', () => {
  it(`answers 202/200/503 only and never commits partially (${faultRuns} runs, seed ${seed})`, async () => {
    const report = await runStorageFaults(faultRuns, seed);
    printFigures(`storage faults: ${faultRuns} runs, seed ${seed}, ${report.seconds} s`, report.figures, report.statuses);
    expect(report.failures.slice(0, 20)).toEqual([]);
    expect(
      report.figures.lost +
        report.figures.appliedTwice +
        report.figures.unfinished +
        report.figures.partialCommits +
        report.figures.answers5xxOther,
    ).toBe(0);
  });
});
