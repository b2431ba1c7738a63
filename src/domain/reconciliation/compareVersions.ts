import { compareInstants } from './compareInstants.js';

/** What decides which of two copies of a transaction or product is the current one. */
export interface Versioned {
  readonly version: number;
  readonly last_modified_at: string;
}

/**
 * Orders two copies of the same record (contract §3, §9): the higher version wins; with equal
 * versions the later last_modified_at instant wins; identical → 0 (an idempotent replay).
 * Returns 1 when a is newer, -1 when b is newer.
 */
export function compareVersions(a: Versioned, b: Versioned): -1 | 0 | 1 {
  if (a.version !== b.version) return a.version > b.version ? 1 : -1;
  return compareInstants(a.last_modified_at, b.last_modified_at);
}
