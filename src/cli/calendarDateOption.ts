import { isCalendarDate } from '../domain/validation/isCalendarDate.js';
import type { Options } from './HqContext.js';
import { UsageError } from './parseArgs.js';

/** The options that name a business date; each is a calendar date, as the HQ API requires. */
const dateOptions = ['date', 'from', 'to'] as const;

/**
 * Refuses a `--date`, `--from` or `--to` that is not `YYYY-MM-DD` naming a day that exists
 * (`2026-02-30` is not one), and a `--from` after `--to`, before the command reads or writes
 * anything: a day that does not exist would otherwise match no row, and the command would
 * report nothing done.
 */
export function checkDateOptions(options: Options): void {
  for (const name of dateOptions) {
    const value = options[name];
    if (value !== undefined && !isCalendarDate(value)) {
      throw new UsageError(`--${name} must be a calendar date, YYYY-MM-DD (a day that exists)`);
    }
  }
  const { from, to } = options;
  if (from !== undefined && to !== undefined && from > to) throw new UsageError('--from must not be after --to');
}
