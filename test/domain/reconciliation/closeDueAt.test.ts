import { describe, expect, it } from 'vitest';
import { closeDueAt } from '../../../src/domain/reconciliation/closeDueAt.js';

const due = (date: string, timeZone: string | undefined, workdayStart: string | undefined, grace = 0): string =>
  closeDueAt(date, { timeZone, workdayStart }, grace).toISOString();

describe('closeDueAt', () => {
  it("is the next day's workday start in the store's time zone, plus the grace hours", () => {
    // New York in winter is UTC-5: 2026-03-02 04:00 local is 09:00Z.
    expect(due('2026-03-01', 'America/New_York', '04:00')).toBe('2026-03-02T09:00:00.000Z');
    expect(due('2026-03-01', 'America/New_York', '04:00', 6)).toBe('2026-03-02T15:00:00.000Z');
    // Tokyo is UTC+9 all year: 2026-03-02 05:00 local is 2026-03-01 20:00Z.
    expect(due('2026-03-01', 'Asia/Tokyo', '05:00')).toBe('2026-03-01T20:00:00.000Z');
  });

  it('follows daylight saving time', () => {
    // US clocks go forward on 2026-03-08: the day after ends at 04:00 EDT (UTC-4).
    expect(due('2026-03-08', 'America/New_York', '04:00')).toBe('2026-03-09T08:00:00.000Z');
    expect(due('2026-07-01', 'Europe/London', '00:00')).toBe('2026-07-01T23:00:00.000Z');
    // 02:30 does not exist in New York on 2026-03-08: the instant after the gap counts.
    expect(due('2026-03-07', 'America/New_York', '02:30')).toBe('2026-03-08T07:30:00.000Z');
  });

  it('takes midnight UTC when the store is unknown, and crosses month and year ends', () => {
    expect(due('2026-12-31', undefined, undefined)).toBe('2027-01-01T00:00:00.000Z');
    expect(due('2026-02-28', 'Not/AZone', '04:00')).toBe('2026-03-01T04:00:00.000Z');
  });
});
