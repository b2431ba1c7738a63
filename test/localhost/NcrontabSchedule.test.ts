import { describe, expect, it } from 'vitest';
import { NcrontabSchedule } from '../../src/localhost/NcrontabSchedule.js';

const next = (expression: string, after: string): string => NcrontabSchedule.parse(expression).next(new Date(after)).toISOString();

describe('NcrontabSchedule', () => {
  it('reads the six-field form with seconds', () => {
    expect(next('0 */5 * * * *', '2026-01-01T10:02:30Z')).toBe('2026-01-01T10:05:00.000Z');
    expect(next('0 */5 * * * *', '2026-01-01T10:05:00Z')).toBe('2026-01-01T10:10:00.000Z');
    expect(next('* * * * * *', '2026-01-01T10:05:00.400Z')).toBe('2026-01-01T10:05:01.000Z');
    expect(next('30 15 2 * * *', '2026-01-01T10:00:00Z')).toBe('2026-01-02T02:15:30.000Z');
  });

  it('reads the five-field form as seconds 0', () => {
    expect(next('*/15 * * * *', '2026-01-01T10:01:00Z')).toBe('2026-01-01T10:15:00.000Z');
  });

  it('handles ranges, lists, steps, names and month ends', () => {
    expect(next('0 0 9-17/4 * * MON-FRI', '2026-01-03T00:00:00Z')).toBe('2026-01-05T09:00:00.000Z'); // Saturday → Monday
    expect(next('0 0 0 31 * *', '2026-02-01T00:00:00Z')).toBe('2026-03-31T00:00:00.000Z');
    expect(next('0 0 0 29 FEB *', '2026-03-01T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
    expect(next('0 0 12 * * 0', '2026-01-01T00:00:00Z')).toBe('2026-01-04T12:00:00.000Z');
    expect(next('0 0 12 * * 7', '2026-01-01T00:00:00Z')).toBe('2026-01-04T12:00:00.000Z');
    expect(next('0 5,35 * * * *', '2026-01-01T00:06:00Z')).toBe('2026-01-01T00:35:00.000Z');
  });

  it('matches either day field when both are restricted, as cron does', () => {
    expect(next('0 0 0 15 * MON', '2026-01-06T00:00:00Z')).toBe('2026-01-12T00:00:00.000Z');
  });

  it('refuses what it cannot read', () => {
    for (const bad of ['', '* * * *', '60 * * * * *', '* * * * * * *', '0 0 0 0 * *', '*/0 * * * * *', '0 0 0 * FOO *', '5-1 * * * * *']) {
      expect(() => NcrontabSchedule.parse(bad), bad).toThrow();
    }
  });
});

describe('NcrontabSchedule.isSubMinute', () => {
  const now = new Date('2026-11-23T10:00:07.250Z');

  it('is true for a schedule of seconds alone that fires more than once in the next minute', () => {
    expect(NcrontabSchedule.parse('* * * * * *').isSubMinute(now)).toBe(true);
    expect(NcrontabSchedule.parse('*/10 * * * * *').isSubMinute(now)).toBe(true);
    expect(NcrontabSchedule.parse('0,30 * * * * *').isSubMinute(now)).toBe(true);
  });

  it('is false once a minute or less often, and whenever a field above the seconds is written out', () => {
    expect(NcrontabSchedule.parse('0 * * * * *').isSubMinute(now)).toBe(false);
    expect(NcrontabSchedule.parse('59 * * * * *').isSubMinute(now)).toBe(false);
    expect(NcrontabSchedule.parse('* * * * *').isSubMinute(now)).toBe(false);
    expect(NcrontabSchedule.parse('0 */5 * * * *').isSubMinute(now)).toBe(false);
    // Every 10 s, but written with an hour: the host keeps its status, even within that hour.
    expect(NcrontabSchedule.parse('*/10 * 10 * * *').isSubMinute(now)).toBe(false);
    expect(NcrontabSchedule.parse('*/10 0-59 * * * *').isSubMinute(now)).toBe(false);
  });
});
