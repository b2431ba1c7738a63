import { describe, expect, it } from 'vitest';
import { epochDay } from '../../src/reports/epochDay.js';
import { timestampMicros } from '../../src/reports/timestampMicros.js';
import { toScaledInteger } from '../../src/reports/toScaledInteger.js';

describe('toScaledInteger', () => {
  it.each([
    ['12.34', 4, 123400n],
    ['-6.82', 4, -68200n],
    ['-640', 4, -6400000n],
    ['0.29', 4, 2900n],
    ['-0.00', 4, 0n],
    ['007.5', 4, 75000n],
    ['1.234567', 6, 1234567n],
    ['99999999999999.9999', 4, 999999999999999999n],
    ['-99999999999999.9999', 4, -999999999999999999n],
  ])('%s at scale %i is %s', (text, scale, expected) => {
    expect(toScaledInteger(text, scale, 18)).toBe(expected);
  });

  it.each([
    ['100000000000000', 4],
    ['1.23456', 4],
    ['1e3', 4],
    ['', 4],
    ['1.', 4],
    ['.5', 4],
    ['1.2345678', 6],
  ])('refuses %s at scale %i instead of rounding or overflowing', (text, scale) => {
    expect(toScaledInteger(text, scale, 18)).toBeUndefined();
  });
});

describe('timestampMicros', () => {
  it('gives the UTC instant and the wall-clock time, to the microsecond', () => {
    expect(timestampMicros('2026-11-20T11:50:00-08:00')).toEqual({
      utc: BigInt(Date.parse('2026-11-20T19:50:00Z')) * 1000n,
      local: BigInt(Date.parse('2026-11-20T11:50:00Z')) * 1000n,
    });
    expect(timestampMicros('2026-11-20T12:40:00.123456789+09:00')?.utc).toBe(BigInt(Date.parse('2026-11-20T03:40:00Z')) * 1000n + 123456n);
    expect(timestampMicros('2026-11-20T12:40:00Z')?.utc).toBe(timestampMicros('2026-11-20T12:40:00Z')?.local);
    expect(timestampMicros('0050-01-01T00:00:00Z')?.utc).toBe(BigInt(new Date('0050-01-01T00:00:00Z').getTime()) * 1000n);
  });

  it.each(['2026-11-20', '2026-13-01T00:00:00Z', '2026-11-20T24:00:00Z', 'yesterday'])('refuses %s', (text) => {
    expect(timestampMicros(text)).toBeUndefined();
  });
});

describe('epochDay', () => {
  it('counts days since 1970-01-01', () => {
    expect(epochDay('1970-01-01')).toBe(0);
    expect(epochDay('2026-11-20')).toBe(Date.UTC(2026, 10, 20) / 86_400_000);
    expect(epochDay('1969-12-31')).toBe(-1);
  });

  it.each(['2026-02-30', '2026-1-01', '20261120'])('refuses %s', (text) => {
    expect(epochDay(text)).toBeUndefined();
  });
});
