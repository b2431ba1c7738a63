import { createHash } from 'node:crypto';

/**
 * A deterministic event id from what identifies the occurrence (partner, type, store-day, the close
 * and the result it was computed from...). A run repeated after a crash produces the same id, so
 * the partner, who deduplicates on `webhook-id`, sees the event once. `evt_` + 32 hex digits.
 */
export function eventIdFor(parts: readonly string[]): string {
  return `evt_${createHash('sha256').update(JSON.stringify(parts), 'utf8').digest('hex').slice(0, 32)}`;
}
