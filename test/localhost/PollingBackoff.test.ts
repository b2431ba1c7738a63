import { describe, expect, it } from 'vitest';
import { PollingBackoff } from '../../src/localhost/PollingBackoff.js';

/** The pauses after `count` empty polls in a row. */
const pauses = (backoff: PollingBackoff, count: number): number[] => Array.from({ length: count }, () => backoff.next(false));

describe('PollingBackoff', () => {
  it('grows from 100 ms, doubling the step each time, up to the maximum, where it stays', () => {
    // A random source at its midpoint: no jitter.
    expect(pauses(new PollingBackoff(2_000, () => 0.5), 9)).toEqual([100, 200, 300, 500, 900, 1_700, 2_000, 2_000, 2_000]);
    // The trigger's default maximum, a minute: about 7 s of pauses before it gets there.
    expect(pauses(new PollingBackoff(60_000, () => 0.5), 12)).toEqual([
      100, 200, 300, 500, 900, 1_700, 3_300, 6_500, 12_900, 25_700, 51_300, 60_000,
    ]);
  });

  it('scales each step by a random factor between 0.8 and 1.2', () => {
    expect(pauses(new PollingBackoff(2_000, () => 0), 7)).toEqual([100, 180, 260, 420, 740, 1_380, 2_000]);
    // Just below 1: the top of the range.
    expect(pauses(new PollingBackoff(2_000, () => 0.999_999), 6)).toEqual([100, 220, 340, 580, 1_060, 2_000]);
    const draws = [0.25, 0.75, 0.5];
    expect(pauses(new PollingBackoff(60_000, () => draws.shift() ?? 0.5), 4)).toEqual([100, 190, 320, 500]);
  });

  it('starts again from 100 ms after a poll that found messages', () => {
    const backoff = new PollingBackoff(2_000, () => 0.5);
    pauses(backoff, 8);
    expect(backoff.next(true)).toBe(100);
    expect(pauses(backoff, 3)).toEqual([200, 300, 500]);
  });

  it('polls every 100 ms when the maximum is the minimum', () => {
    expect(pauses(new PollingBackoff(100, () => 0.5), 4)).toEqual([100, 100, 100, 100]);
  });

  it('refuses a maximum below 100 ms', () => {
    expect(() => new PollingBackoff(99)).toThrow(RangeError);
    expect(() => new PollingBackoff(Number.NaN)).toThrow(RangeError);
  });
});
