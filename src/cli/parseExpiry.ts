import { isCalendarDate } from '../domain/validation/isCalendarDate.js';
import { UsageError } from './parseArgs.js';

/** `YYYY-MM-DDThh:mm[:ss[.fraction]]` and its zone, `Z` or `+hh:mm`/`-hh:mm`; T and Z in capitals. */
const dateTimePattern = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/;

const accepted =
  '--expires must be an ISO 8601 date or date-time with its zone: YYYY-MM-DD (that day at 00:00 UTC), ' +
  'or YYYY-MM-DDThh:mm[:ss[.sss]] followed by Z, +hh:mm or -hh:mm, naming a day that exists';

/**
 * `--expires` as an ISO instant in the future, or undefined for a key that does not expire. Only
 * the strict forms are taken: a day that does not exist (`2027-02-30`) is refused rather than
 * rolled into the next month, and a date-time must carry its zone, so the operator's own time
 * zone never moves an expiry.
 */
export function parseExpiry(expires: string | undefined, now: Date): string | undefined {
  if (expires === undefined) return undefined;
  if (!isExpiry(expires)) throw new UsageError(accepted);
  // Both forms are in ECMAScript's date-time string format: a date alone is read as UTC.
  const time = Date.parse(expires);
  if (Number.isNaN(time)) throw new UsageError(accepted);
  if (time <= now.getTime()) throw new UsageError('--expires must be in the future');
  return new Date(time).toISOString();
}

function isExpiry(text: string): boolean {
  if (isCalendarDate(text)) return true;
  const m = dateTimePattern.exec(text);
  if (!m) return false;
  const [date, hours, minutes, seconds = '00', zoneHours = '00', zoneMinutes = '00'] = m.slice(1);
  return (
    date !== undefined &&
    isCalendarDate(date) &&
    Number(hours) <= 23 &&
    Number(minutes) <= 59 &&
    Number(seconds) <= 59 &&
    Number(zoneHours) <= 23 &&
    Number(zoneMinutes) <= 59
  );
}
