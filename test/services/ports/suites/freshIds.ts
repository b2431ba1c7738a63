import { randomUUID } from 'node:crypto';

/**
 * A partner id no other test uses (so suites share one table), with characters table keys cannot
 * hold, so every implementation is made to encode them.
 */
export function freshPartnerId(): string {
  return `p/${randomUUID().slice(0, 8)}#?`;
}
