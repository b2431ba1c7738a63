import type { TableClient } from '@azure/data-tables';
import { encodeKeyPart } from './tableKey.js';
import { writeIfCurrent } from './writeIfCurrent.js';

export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

const windowMs = 60_000;

/**
 * A fixed one-minute window per partner, counted in Table Storage so every instance of the
 * service shares it. Each allowed call costs one read and one ETag-guarded write.
 */
export class TableRateLimiter {
  constructor(private readonly table: TableClient) {}

  async take(partnerId: string, limitPerMinute: number, now: Date): Promise<RateDecision> {
    const windowStart = Math.floor(now.getTime() / windowMs) * windowMs;
    const allowed = await writeIfCurrent<{ count: number }>(this.table, encodeKeyPart(partnerId), String(windowStart), (current) => {
      const count = current?.count ?? 0;
      return count >= limitPerMinute ? undefined : { count: count + 1 };
    });
    if (allowed) return { allowed: true };
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((windowStart + windowMs - now.getTime()) / 1000)) };
  }
}
