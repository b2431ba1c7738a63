import { describe, expect, it } from 'vitest';
import { TimedCache } from '../../src/services/TimedCache.js';
import { testClock } from '../support/testClock.js';

describe('TimedCache', () => {
  it('answers an entry until it is ttl old, then forgets it', () => {
    const clock = testClock(new Date('2026-03-01T12:00:00Z'));
    const cache = new TimedCache<string, number>(clock, 30_000);
    cache.set('a', 1, clock());
    clock.advance(29_999);
    expect(cache.get('a')).toBe(1);
    clock.advance(1);
    expect(cache.get('a')).toBeUndefined();
    clock.advance(-10_000);
    expect(cache.get('a')).toBeUndefined();
  });

  it("counts age from when the read started, and distrusts an entry from the clock's future", () => {
    const clock = testClock(new Date('2026-03-01T12:00:00Z'));
    const cache = new TimedCache<string, number>(clock, 30_000);
    const readAt = clock();
    clock.advance(20_000);
    cache.set('a', 1, readAt);
    clock.advance(10_000);
    expect(cache.get('a')).toBeUndefined();

    cache.set('b', 2, clock());
    clock.advance(-1);
    expect(cache.get('b')).toBeUndefined();
  });

  it('keeps nothing with a ttl of 0', () => {
    const clock = testClock();
    const cache = new TimedCache<string, number>(clock, 0);
    cache.set('a', 1, clock());
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the oldest entry beyond its size bound', () => {
    const clock = testClock();
    const cache = new TimedCache<string, number>(clock, 30_000, 2);
    cache.set('a', 1, clock());
    cache.set('b', 2, clock());
    cache.set('c', 3, clock());
    expect([cache.get('a'), cache.get('b'), cache.get('c')]).toEqual([undefined, 2, 3]);
  });

  it('reads through: a kept value is answered without reading, a refused or missing one is read again', async () => {
    const clock = testClock(new Date('2026-03-01T12:00:00Z'));
    const cache = new TimedCache<string, number>(clock, 30_000);
    const reads: string[] = [];
    const read = (key: string, value: number | undefined) => () => {
      reads.push(key);
      return Promise.resolve(value);
    };
    const positive = (value: number) => value > 0;
    expect(await cache.getOrRead('a', read('a', 1), positive)).toBe(1);
    expect(await cache.getOrRead('a', read('a', 9), positive)).toBe(1);
    expect(await cache.getOrRead('b', read('b', -1), positive)).toBe(-1);
    expect(await cache.getOrRead('b', read('b', -2), positive)).toBe(-2);
    expect(await cache.getOrRead('c', read('c', undefined))).toBeUndefined();
    expect(await cache.getOrRead('c', read('c', 3))).toBe(3);
    clock.advance(30_000);
    expect(await cache.getOrRead('a', read('a', 4), positive)).toBe(4);
    expect(reads).toEqual(['a', 'b', 'b', 'c', 'c', 'a']);
  });
});
