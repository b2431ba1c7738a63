/**
 * How far after the service's clock a store's `last_modified_at` may lie. A store carries no
 * version: the later stamp wins, so one sent from a clock years ahead (or as a placeholder such as
 * 9999-12-31) could never be replaced by a correction. A day covers any honest clock's drift.
 */
const maxStampAheadMs = 24 * 3_600_000;

/** Whether a store's `last_modified_at` lies further after `now` than any honest clock would write. */
export function isStampTooFarAhead(lastModifiedAt: string, now: Date): boolean {
  return Date.parse(lastModifiedAt) > now.getTime() + maxStampAheadMs;
}
