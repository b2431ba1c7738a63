import { describe, expect, it } from 'vitest';
import { printFigures } from './support/dayScenario.js';
import { chaosSettings } from './support/random.js';
import { crashPoints, runCrashRecovery } from './support/crashRecovery.js';

// Every crash point once with each recovery.
const { runs, seed } = chaosSettings(crashPoints.length * 2);

describe('a push cut off at every write step', () => {
  it(`is finished by a retry or by the sweep: nothing acknowledged is lost, nothing is applied twice (${runs} runs, seed ${seed})`, async () => {
    const report = await runCrashRecovery(runs, seed);
    printFigures(`crash recovery: ${runs} runs, seed ${seed}, ${report.seconds} s`, report.figures);
    expect(report.failures).toEqual([]);
    expect(report.figures.lost).toBe(0);
    expect(report.figures.appliedTwice).toBe(0);
    expect(report.figures.unfinished).toBe(0);
    // Every run ends acknowledged: the partner's final send is answered 202 or 200.
    expect(report.figures.acknowledged).toBe(runs);
    expect(report.figures.acceptedAnswers).toBeLessThanOrEqual(runs);
  }, 300_000); // A bound against a hang, not a speed check: seeded runs share the machine's cores.
});
