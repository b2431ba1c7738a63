import { describe, expect, it } from 'vitest';
import { drainWithinBudget } from '../../src/services/drainWithinBudget.js';
import { deferred } from '../support/deferred.js';

/** A source of `items` that counts its `return()`, and fails at `failAt` when given. */
function source(items: readonly number[], failAt?: number): AsyncIterator<number> & { closed: number } {
  let next = 0;
  const iterator = {
    closed: 0,
    next: () => {
      if (next === failAt) return Promise.reject(new Error('listing failed'));
      const value = items[next++];
      return Promise.resolve(value === undefined ? { done: true as const, value: undefined } : { done: false as const, value });
    },
    return: () => {
      iterator.closed += 1;
      return Promise.resolve({ done: true as const, value: undefined });
    },
  };
  return iterator;
}

const always = { deadline: Number.POSITIVE_INFINITY, now: () => 0 };

describe('drainWithinBudget', () => {
  it('hands every item to work, in order, never more than `lanes` at once, and closes the source', async () => {
    const items = Array.from({ length: 10 }, (_, i) => i);
    const from = source(items);
    const seen: number[] = [];
    let running = 0;
    let most = 0;
    const outcome = await drainWithinBudget(from, { lanes: 3, ...always }, async (item) => {
      seen.push(item);
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 1 + (item % 3)));
      running -= 1;
    });
    expect(outcome).toEqual({ taken: 10, stoppedAtBudget: false });
    expect(seen).toEqual(items);
    expect(most).toBe(3);
    expect(from.closed).toBe(1);
  });

  it('takes nothing once the deadline has passed, and returns once the calls under way have finished', async () => {
    let clock = 0;
    const gate = deferred<undefined>();
    const finished: number[] = [];
    const from = source([1, 2, 3, 4, 5]);
    let returned = false;
    const run = drainWithinBudget(from, { lanes: 2, deadline: 100, now: () => clock }, async (item) => {
      if (item === 1) await gate.promise;
      // The deadline passes while item 2 is worked on: its lane takes nothing more.
      if (item === 2) clock = 100;
      finished.push(item);
    }).finally(() => (returned = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(finished).toEqual([2]);
    expect(returned).toBe(false);
    gate.resolve(undefined);
    expect(await run).toEqual({ taken: 2, stoppedAtBudget: true });
    expect(finished).toEqual([2, 1]);
    expect(from.closed).toBe(1);
    // A budget already spent takes nothing.
    expect(await drainWithinBudget(source([1]), { lanes: 2, deadline: 0, now: () => 0 }, () => Promise.resolve())).toEqual({
      taken: 0,
      stoppedAtBudget: true,
    });
  });

  it('returns what the source threw once the calls under way have ended, taking nothing more', async () => {
    const from = source([1, 2, 3, 4], 2);
    const gate = deferred<undefined>();
    const finished: number[] = [];
    const run = drainWithinBudget(from, { lanes: 2, ...always }, async (item) => {
      if (item === 1) await gate.promise;
      finished.push(item);
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(finished).toEqual([2]);
    gate.resolve(undefined);
    const outcome = await run;
    expect(finished).toEqual([2, 1]);
    expect(outcome).toMatchObject({ taken: 2, stoppedAtBudget: false, failure: { reason: new Error('listing failed') } });
    expect(from.closed).toBe(1);
  });

  it('stops every lane after a call of work throws', async () => {
    const seen: number[] = [];
    const outcome = await drainWithinBudget(source([1, 2, 3, 4, 5, 6]), { lanes: 2, ...always }, async (item) => {
      seen.push(item);
      await Promise.resolve();
      if (item === 2) throw new Error('work failed');
    });
    expect(outcome.failure?.reason).toEqual(new Error('work failed'));
    // Item 3, which the other lane asked for before item 2 failed and got after, is left.
    expect(seen).toEqual([1, 2]);
    expect(outcome.taken).toBe(2);
  });

  it('hands no item to work after a call has thrown, though a lane was waiting for it then', async () => {
    const gate = deferred<undefined>();
    let asked = 0;
    const slowSecond: AsyncIterator<number> = {
      next: async () => {
        const item = asked++;
        if (item === 1) await gate.promise;
        return item < 3 ? { done: false, value: item } : { done: true, value: undefined };
      },
    };
    const seen: number[] = [];
    const outcome = await drainWithinBudget(slowSecond, { lanes: 2, ...always }, async (item) => {
      seen.push(item);
      // Item 0 fails while the other lane waits for item 1, which arrives only afterwards.
      setTimeout(() => {
        gate.resolve(undefined);
      }, 5);
      await Promise.resolve();
      throw new Error('work failed');
    });
    expect(seen).toEqual([0]);
    expect(outcome).toMatchObject({ taken: 1, failure: { reason: new Error('work failed') } });
  });
});
