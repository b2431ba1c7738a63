import { describe, expect, it } from 'vitest';
import { printFigures } from './support/dayScenario.js';
import { chaosSettings } from './support/random.js';
import { runCrashRecovery } from './support/crashRecovery.js';

const { runs, seed } = chaosSettings(1000);

describe('chaos: pushes cut off at every write step', () => {
  it(`nothing acknowledged is lost, nothing applied twice, nothing left unfinished (${runs} runs, seed ${seed})`, async () => {
    const report = await runCrashRecovery(runs, seed);
    printFigures(`crash recovery: ${runs} runs, seed ${seed}, ${report.seconds} s`, report.figures);
    printFigures('runs per crash point / recovery', report.byPoint as never);
    expect(report.failures.slice(0, 20)).toEqual([]);
    expect(report.figures.lost + report.figures.appliedTwice + report.figures.unfinished).toBe(0);
  });
});
