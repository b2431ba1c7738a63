import { UsageError } from './parseArgs.js';

/** `--expires` as an ISO instant in the future, or undefined for a key that does not expire. */
export function parseExpiry(expires: string | undefined, now: Date): string | undefined {
  if (expires === undefined) return undefined;
  const time = Date.parse(expires);
  if (Number.isNaN(time)) throw new UsageError('--expires must be an ISO 8601 date or date-time');
  if (time <= now.getTime()) throw new UsageError('--expires must be in the future');
  return new Date(time).toISOString();
}
