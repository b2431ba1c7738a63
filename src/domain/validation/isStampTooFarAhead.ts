import { compareInstants } from '../reconciliation/compareInstants.js';

/**
 * How far after the service's clock a store's `last_modified_at` may lie. A store carries no
 * version: the later stamp wins, so one sent from a clock years ahead (or as a placeholder such as
 * 9999-12-31) could never be replaced by a correction. A day covers any honest clock's drift.
 */
const maxStampAheadMs = 24 * 3_600_000;

/**
 * Whether a store's `last_modified_at` lies further after `now` than any honest clock would write.
 * Read as the version rule reads it, to the last fractional digit (`Date.parse` stops at the
 * millisecond, so a stamp a microsecond past the bound passed).
 */
export function isStampTooFarAhead(lastModifiedAt: string, now: Date): boolean {
  return compareInstants(lastModifiedAt, new Date(now.getTime() + maxStampAheadMs).toISOString()) > 0;
}
