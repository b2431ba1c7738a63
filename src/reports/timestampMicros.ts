import { utcMillis } from '../domain/utcMillis.js';

/** An instant as the two Parquet timestamps the reports carry, in microseconds since 1970-01-01. */
export interface TimestampMicros {
  /** The instant in UTC (Parquet TIMESTAMP, isAdjustedToUTC = true). */
  readonly utc: bigint;
  /** The wall-clock time the POS wrote, offset not applied (Parquet TIMESTAMP, isAdjustedToUTC = false). */
  readonly local: bigint;
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2})(?::?(\d{2}))?)$/;

/**
 * Reads an ISO 8601 date-time with a UTC offset (contract §2.1) with integer arithmetic only.
 * Fractional seconds beyond the sixth digit are dropped (microseconds are the finest unit every
 * reader of the files understands). Undefined when the text is not such a date-time.
 */
export function timestampMicros(text: string): TimestampMicros | undefined {
  const m = DATE_TIME.exec(text);
  if (!m) return undefined;
  const n = (i: number): number => Number(m[i] ?? '0');
  const month = n(2);
  const day = n(3);
  if (month < 1 || month > 12 || day < 1 || day > 31 || n(4) > 23 || n(5) > 59 || n(6) > 60) return undefined;
  const localSeconds = utcMillis(n(1), month, day, n(4), n(5), n(6)) / 1000;
  if (!Number.isSafeInteger(localSeconds)) return undefined;
  const offsetSeconds = m[8] === undefined ? 0 : (m[8] === '-' ? -1 : 1) * (n(9) * 3600 + n(10) * 60);
  const micros = BigInt((m[7] ?? '').slice(0, 6).padEnd(6, '0'));
  const local = BigInt(localSeconds) * 1_000_000n + micros;
  return { local, utc: local - BigInt(offsetSeconds) * 1_000_000n };
}
