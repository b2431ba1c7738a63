import type { StoreDaysWriterState, StoreDaysWriters } from '../../../src/services/ports/StoreDaysWriters.js';

/** Store_days writer rows in a map, each write a new ETag, for unit tests of services. */
export class InMemoryStoreDaysWriters implements StoreDaysWriters {
  private readonly rows = new Map<string, StoreDaysWriterState & { etag: string }>();
  private writes = 0;

  read(partnerId: string, businessDate: string): Promise<(StoreDaysWriterState & { etag: string }) | undefined> {
    const row = this.rows.get(JSON.stringify([partnerId, businessDate]));
    return Promise.resolve(row && { ...row });
  }

  write(partnerId: string, businessDate: string, state: StoreDaysWriterState, etag: string | undefined): Promise<string | undefined> {
    const key = JSON.stringify([partnerId, businessDate]);
    if (this.rows.get(key)?.etag !== etag) return Promise.resolve(undefined);
    this.writes += 1;
    const { leaseId, leaseUntil, dirty, started, finished } = state;
    this.rows.set(key, {
      ...(leaseId === undefined || leaseUntil === undefined ? {} : { leaseId, leaseUntil }),
      dirty,
      started,
      finished,
      etag: `w${this.writes}`,
    });
    return Promise.resolve(`w${this.writes}`);
  }
}
