import { describe, expect, it } from 'vitest';
import { mapBounded } from '../../src/services/mapBounded.js';

/** A turn of the event loop: a call that takes `n` of them is still under way while quicker ones end. */
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('mapBounded', () => {
  it('keeps at most the given number of calls in flight and returns results in input order', async () => {
    let inFlight = 0;
    let most = 0;
    const results = await mapBounded([5, 1, 4, 2, 3, 6, 7], 3, async (n) => {
      most = Math.max(most, ++inFlight);
      for (let i = 0; i < n; i++) await tick();
      inFlight -= 1;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 60, 70]);
    expect(most).toBe(3);
  });

  it('starts no call after one failed, and throws only once the calls under way have ended', async () => {
    const started: number[] = [];
    const ended: number[] = [];
    const outcome = mapBounded([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      if (n === 1) throw new Error('first failed');
      for (let i = 0; i < 5; i++) await tick();
      ended.push(n);
      return n;
    });
    await expect(outcome).rejects.toThrow('first failed');
    expect(started).toEqual([1, 2]);
    expect(ended).toEqual([2]);
  });
});
