import { describe, expect, it, vi } from 'vitest';
import { ConcurrencyLimit, type SlotRun } from '../../src/services/ConcurrencyLimit.js';

/** A task that runs until released, recording when it started. */
function gate(started: number[], id: number): { task: () => Promise<number>; release: () => void } {
  let release: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (release = resolve));
  return {
    task: async () => {
      started.push(id);
      await done;
      return id;
    },
    release: () => {
      release();
    },
  };
}

const turns = async (n = 5): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

/** A bound no test reaches: where the order and the hand-over are under test, not the bound. */
const noBound = 60_000;

/** The task's value, failing where the limit gave up on it. */
async function ran<T>(run: Promise<SlotRun<T>>): Promise<T> {
  const result = await run;
  if (!result.started) throw new Error('the limit gave up on a task it should have run');
  return result.value;
}

/** Task 0, holding a slot of `limit` until released. */
async function holdSlot(limit: ConcurrencyLimit, started: number[]): Promise<{ release: () => void; result: Promise<number> }> {
  const held = gate(started, 0);
  const result = ran(limit.runWithin(noBound, held.task));
  await turns();
  return { release: held.release, result };
}

describe('ConcurrencyLimit', () => {
  it('runs at most its slots at once and starts the waiting tasks in the order they came', async () => {
    const limit = new ConcurrencyLimit(2);
    const started: number[] = [];
    const gates = [0, 1, 2, 3, 4].map((id) => gate(started, id));
    const results = gates.map((g) => ran(limit.runWithin(noBound, g.task)));
    await turns();
    expect(started).toEqual([0, 1]);
    expect([limit.running, limit.waiting]).toEqual([2, 3]);

    gates[1]?.release();
    await turns();
    expect(started).toEqual([0, 1, 2]);
    // A task arriving now waits behind the ones already waiting.
    const late = gate(started, 5);
    const lateResult = ran(limit.runWithin(noBound, late.task));
    gates[0]?.release();
    await turns();
    expect(started).toEqual([0, 1, 2, 3]);
    expect([limit.running, limit.waiting]).toEqual([2, 2]);

    for (const g of [...gates, late]) g.release();
    expect(await Promise.all([...results, lateResult])).toEqual([0, 1, 2, 3, 4, 5]);
    expect([limit.running, limit.waiting]).toEqual([0, 0]);
  });

  it('frees the slot of a task that fails, and hands its failure to the caller', async () => {
    const limit = new ConcurrencyLimit(1);
    const failing = limit.runWithin(noBound, () => Promise.reject(new Error('storage unavailable')));
    const next = ran(limit.runWithin(noBound, () => Promise.resolve('ran')));
    await expect(failing).rejects.toThrow('storage unavailable');
    await expect(next).resolves.toBe('ran');
    expect([limit.running, limit.waiting]).toEqual([0, 0]);
  });

  it('runWithin starts a task when a slot frees within the wait, and gives up unstarted after it', async () => {
    const limit = new ConcurrencyLimit(1);
    const started: number[] = [];
    const first = await holdSlot(limit, started);
    const inTime = gate(started, 1);
    const inTimeResult = limit.runWithin(5_000, inTime.task);
    const tooLate = gate(started, 2);
    const tooLateResult = limit.runWithin(50, tooLate.task);
    // Both queue up at once, in the call (read before any timer can run).
    expect([limit.running, limit.waiting]).toEqual([1, 2]);

    // Gave up: never started, and no longer waiting.
    await expect(tooLateResult).resolves.toEqual({ started: false });
    expect([started, limit.running, limit.waiting]).toEqual([[0], 1, 1]);

    first.release();
    await turns();
    expect(started).toEqual([0, 1]);
    inTime.release();
    expect(await Promise.all([first.result, inTimeResult])).toEqual([0, { started: true, value: 1 }]);
    expect([limit.running, limit.waiting]).toEqual([0, 0]);
  });

  it('runWithin takes a free slot at once, and one handed over before its bound is not also given up', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.runWithin(0, () => Promise.resolve('free'))).resolves.toEqual({ started: true, value: 'free' });

    // The bounds' timers run on time the test moves.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const started: number[] = [];
      const first = await holdSlot(limit, started);
      const waiter = gate(started, 1);
      const waiterResult = limit.runWithin(30, waiter.task);
      // Behind it, a task that waits on: what an expired timer took out of the queue would be this one.
      const behind = gate(started, 2);
      const behindResult = limit.runWithin(noBound, behind.task);
      first.release();
      await first.result;
      // Past its bound while it runs: the expired timer must not take its slot, run it twice or
      // drop another waiting task.
      vi.advanceTimersByTime(60);
      await turns();
      expect([started, limit.running, limit.waiting]).toEqual([[0, 1], 1, 1]);
      waiter.release();
      await expect(waiterResult).resolves.toEqual({ started: true, value: 1 });
      behind.release();
      await expect(behindResult).resolves.toEqual({ started: true, value: 2 });
      expect([limit.running, limit.waiting]).toEqual([0, 0]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('refuses a number of slots that is not a positive integer', () => {
    for (const slots of [0, -1, 1.5, Number.NaN]) expect(() => new ConcurrencyLimit(slots)).toThrow(RangeError);
  });
});
