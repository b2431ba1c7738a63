import { describe, expect, it } from 'vitest';
import { buildStamp } from '../../src/reports/buildStamp.js';

describe('buildStamp', () => {
  it('orders by run number first, as numbers, then by the instant the build started', () => {
    const stamps = [
      buildStamp(10, '2026-03-02T00:00:00.000Z'),
      buildStamp(9, '2026-03-02T05:00:00.000Z'),
      buildStamp(9, '2026-03-02T04:00:00.000Z'),
      buildStamp(0, '2026-03-03T00:00:00.000Z'),
    ];
    expect([...stamps].sort()).toEqual([...stamps].reverse());
  });

  it('sorts above the bare instants that stamped files before runs were numbered', () => {
    expect(buildStamp(0, '2026-03-02T00:00:00.000Z') > '2026-03-03T00:00:00.000Z').toBe(true);
  });

  it('refuses a run number that would not sort as one', () => {
    expect(() => buildStamp(-1, '2026-03-02T00:00:00.000Z')).toThrow(RangeError);
    expect(() => buildStamp(1.5, '2026-03-02T00:00:00.000Z')).toThrow(RangeError);
  });
});
