import { describe, expect, it } from 'vitest';
import { compareInstants } from '../../../src/domain/reconciliation/compareInstants.js';
import { compareVersions } from '../../../src/domain/reconciliation/compareVersions.js';

describe('compareVersions', () => {
  it('lets the higher version win whatever the times', () => {
    const v2 = { version: 2, last_modified_at: '2026-11-20T10:00:00Z' };
    const v1 = { version: 1, last_modified_at: '2026-11-20T23:00:00Z' };
    expect(compareVersions(v2, v1)).toBe(1);
    expect(compareVersions(v1, v2)).toBe(-1);
    expect(
      compareVersions({ version: 10, last_modified_at: v1.last_modified_at }, { version: 9, last_modified_at: v1.last_modified_at }),
    ).toBe(1);
  });

  it('lets the later instant win between equal versions, across offsets', () => {
    // 12:06 in Seattle is 20:06 UTC, one minute after 20:05Z, although its text sorts first.
    const later = { version: 1, last_modified_at: '2026-11-20T12:06:00-08:00' };
    const earlier = { version: 1, last_modified_at: '2026-11-20T20:05:00Z' };
    expect(compareVersions(later, earlier)).toBe(1);
    expect(compareVersions(earlier, later)).toBe(-1);
  });

  it('treats the same instant written differently as a replay', () => {
    expect(
      compareVersions(
        { version: 3, last_modified_at: '2026-11-21T05:00:00+09:00' },
        { version: 3, last_modified_at: '2026-11-20T20:00:00.000Z' },
      ),
    ).toBe(0);
    expect(
      compareVersions({ version: 3, last_modified_at: '2026-11-20T20:00:00Z' }, { version: 3, last_modified_at: '2026-11-20T20:00:00Z' }),
    ).toBe(0);
  });
});

describe('compareInstants', () => {
  it('compares fractions beyond milliseconds', () => {
    expect(compareInstants('2026-11-20T20:00:00.0001Z', '2026-11-20T20:00:00Z')).toBe(1);
    expect(compareInstants('2026-11-20T20:00:00.1234567Z', '2026-11-20T20:00:00.123456Z')).toBe(1);
    expect(compareInstants('2026-11-20T20:00:00.5Z', '2026-11-20T20:00:00.500000Z')).toBe(0);
  });

  it('understands the other forms of the date-time format', () => {
    expect(compareInstants('2026-11-20 20:00:00z', '2026-11-21T05:00:00+0900')).toBe(0);
    expect(compareInstants('2026-11-20T15:00:00-05', '2026-11-20T20:00:00Z')).toBe(0);
    expect(compareInstants('2026-11-20T23:30:00+05:30', '2026-11-20T18:00:00Z')).toBe(0);
    expect(compareInstants('2026-12-31T23:00:00-02:00', '2027-01-01T01:00:00Z')).toBe(0);
  });

  it('reads the years 0 to 99 as themselves, not as 1900 to 1999', () => {
    expect(compareInstants('0099-01-01T00:00:00Z', '1950-01-01T00:00:00Z')).toBe(-1);
    expect(compareInstants('0001-06-01T00:00:00Z', '0000-12-31T23:59:59Z')).toBe(1);
    expect(compareInstants('0050-01-01T00:00:00+01:00', '0049-12-31T23:00:00Z')).toBe(0);
  });

  it('refuses a timestamp without an offset', () => {
    expect(() => compareInstants('2026-11-20T20:00:00', '2026-11-20T20:00:00Z')).toThrow(RangeError);
  });
});
