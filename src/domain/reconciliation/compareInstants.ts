import { utcMillis } from '../utcMillis.js';

/**
 * Instants of ISO 8601 date-time strings with a UTC offset (contract §2.1), compared exactly:
 * offsets are applied and fractional seconds are compared to their last digit, not rounded to
 * milliseconds. The forms accepted by the JSON Schema `date-time` format are understood:
 * `T` or a space between date and time, `Z` or `±hh:mm` / `±hhmm` / `±hh`, case-insensitive.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)$/;

interface Instant {
  /** Whole seconds since the Unix epoch, UTC. */
  readonly seconds: number;
  /** Fractional-second digits without trailing zeros ('' for none). */
  readonly fraction: string;
}

function parseInstant(text: string): Instant {
  const m = DATE_TIME.exec(text);
  if (!m) throw new RangeError(`not an ISO 8601 date-time with a UTC offset: ${JSON.stringify(text.slice(0, 40))}`);
  const n = (i: number): number => Number(m[i] ?? '0');
  const local = utcMillis(n(1), n(2), n(3), n(4), n(5), n(6)) / 1000;
  const offsetSign = m[9] === '-' ? -1 : 1;
  const offset = m[8] !== undefined ? 0 : offsetSign * (n(10) * 3600 + n(11) * 60);
  return { seconds: local - offset, fraction: (m[7] ?? '').replace(/0+$/, '') };
}

/** -1, 0 or 1 as instant a is before, equal to or after instant b. Throws a RangeError on a malformed timestamp. */
export function compareInstants(a: string, b: string): -1 | 0 | 1 {
  const x = parseInstant(a);
  const y = parseInstant(b);
  if (x.seconds !== y.seconds) return x.seconds < y.seconds ? -1 : 1;
  const width = Math.max(x.fraction.length, y.fraction.length);
  const fx = x.fraction.padEnd(width, '0');
  const fy = y.fraction.padEnd(width, '0');
  return fx === fy ? 0 : fx < fy ? -1 : 1;
}
