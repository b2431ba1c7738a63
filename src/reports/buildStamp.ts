/**
 * The stamp that orders two builds of one store-day's files: the later stamp's files and row win.
 *
 * Builds are ordered first by the number of the reconciliation run whose result they hold. Runs
 * are numbered on the day's row before each lists the day, and a run's result is stored only if no
 * later run's is, so the higher number holds the later result and the later listing, whatever the
 * clocks of the instances that built them say. Builds of one result (a rebuild, a retry) are then
 * ordered by the instant each started.
 *
 * Stamps compare as strings. The run number is padded so that its digits sort as numbers, and the
 * leading `r` sorts above the bare ISO 8601 instants that stamped files before runs were numbered.
 */
export function buildStamp(runNumber: number, startedAt: string): string {
  if (!Number.isSafeInteger(runNumber) || runNumber < 0) throw new RangeError('A run number is a whole number from 0.');
  return `r${String(runNumber).padStart(16, '0')}|${startedAt}`;
}
