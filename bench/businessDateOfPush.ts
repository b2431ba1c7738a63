import { benchBusinessDate } from './benchBusinessDate.js';

const dayMs = 24 * 60 * 60 * 1000;

/**
 * The business date of push `n` when every push has a store-day of its own: `n` days before the
 * benchmark's date (push 0 is on it). The emulator's cost of writing a batch grows with the rows
 * its store-day already holds, which Azure Table Storage's does not (bench/ROUNDS.md, round 12),
 * so a measured push goes to a store-day the benchmark has not written yet.
 */
export function businessDateOfPush(n: number): string {
  return new Date(Date.parse(`${benchBusinessDate}T00:00:00Z`) - n * dayMs).toISOString().slice(0, 10);
}
