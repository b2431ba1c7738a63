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

  it('is right on the days around every change of 2026, in both hemispheres and with half-hour shifts', () => {
    const zones = ['America/New_York', 'America/Chicago', 'America/Santiago', 'Europe/London', 'Australia/Sydney', 'Australia/Lord_Howe'];
    const starts = ['00:00', '01:30', '03:00', '04:00', '23:59'];
    let checked = 0;
    for (const zone of zones) {
      for (let day = Date.UTC(2026, 0, 1); day < Date.UTC(2027, 0, 1); day += 86_400_000) {
        const date = new Date(day).toISOString().slice(0, 10);
        for (const start of starts) {
          const wanted = wallTimeOfNextDay(date, start);
          const readings = instantsReading(zone, wanted);
          if (readings.length === 0) continue; // a wall time clocks skipped: the case above
          expect(due(date, zone, start), `${zone} ${date} ${start}`).toBe(new Date(Math.min(...readings)).toISOString());
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(zones.length * starts.length * 360);
  });

  it('takes the first of a wall time that occurs twice, east and west of UTC', () => {
    // New York goes back on 2026-11-01 at 02:00 EDT: 01:30 is first 05:30Z (EDT), then 06:30Z (EST).
    expect(due('2026-10-31', 'America/New_York', '01:30')).toBe('2026-11-01T05:30:00.000Z');
    // Sydney goes back on 2026-04-05 at 03:00 AEDT: 02:30 is first 15:30Z (AEDT), then 16:30Z (AEST).
    expect(due('2026-04-04', 'Australia/Sydney', '02:30')).toBe('2026-04-04T15:30:00.000Z');
  });

  it('takes midnight UTC when the store is unknown, and crosses month and year ends', () => {
    expect(due('2026-12-31', undefined, undefined)).toBe('2027-01-01T00:00:00.000Z');
    expect(due('2026-02-28', 'Not/AZone', '04:00')).toBe('2026-03-01T04:00:00.000Z');
  });
});

/** The wall time `start` of the day after `date`, written as if it were UTC. */
function wallTimeOfNextDay(date: string, start: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = start.split(':').map(Number) as [number, number];
  return Date.UTC(y, m - 1, d + 1, hh, mm);
}

/**
 * Every instant at which the zone's clock reads `wall`: each offset the zone uses in 2026 (read
 * from its `GMT±hh:mm` name at every noon UTC of the year) is tried, and kept when the clock at the
 * instant it gives shows `wall`.
 */
function instantsReading(timeZone: string, wall: number): number[] {
  const clock = clockOf(timeZone);
  const wanted = clockOf('UTC').format(new Date(wall));
  return [...offsetsOf2026(timeZone)].map((offset) => wall - offset).filter((instant) => clock.format(new Date(instant)) === wanted);
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/** A formatter of the zone's wall clock to the minute; built once per zone (building one is slow). */
function clockOf(timeZone: string): Intl.DateTimeFormat {
  let clock = clocks.get(timeZone);
  if (!clock) {
    const options = { hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' } as const;
    clock = new Intl.DateTimeFormat('en-GB', { ...options, timeZone });
    clocks.set(timeZone, clock);
  }
  return clock;
}

const offsetCache = new Map<string, Set<number>>();

function offsetsOf2026(timeZone: string): Set<number> {
  let offsets = offsetCache.get(timeZone);
  if (offsets) return offsets;
  offsets = new Set();
  const names = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
  for (let noon = Date.UTC(2025, 11, 25, 12); noon < Date.UTC(2027, 0, 10); noon += 86_400_000) {
    const name = names.formatToParts(new Date(noon)).find((part) => part.type === 'timeZoneName')?.value ?? 'GMT';
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
    offsets.add(match ? (match[1] === '-' ? -1 : 1) * (Number(match[2]) * 3_600_000 + Number(match[3]) * 60_000) : 0);
  }
  offsetCache.set(timeZone, offsets);
  return offsets;
}
