import { describe, expect, it } from 'vitest';
import { ConcurrencyLimit } from '../../src/services/ConcurrencyLimit.js';

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

describe('ConcurrencyLimit', () => {
  it('runs at most its slots at once and starts the waiting tasks in the order they came', async () => {
    const limit = new ConcurrencyLimit(2);
    const started: number[] = [];
    const gates = [0, 1, 2, 3, 4].map((id) => gate(started, id));
    const results = gates.map((g) => limit.run(g.task));
    await turns();
    expect(started).toEqual([0, 1]);
    expect([limit.running, limit.waiting]).toEqual([2, 3]);

    gates[1]?.release();
    await turns();
    expect(started).toEqual([0, 1, 2]);
    // A task arriving now waits behind the ones already waiting.
    const late = gate(started, 5);
    const lateResult = limit.run(late.task);
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
    const failing = limit.run(() => Promise.reject(new Error('storage unavailable')));
    const next = limit.run(() => Promise.resolve('ran'));
    await expect(failing).rejects.toThrow('storage unavailable');
    await expect(next).resolves.toBe('ran');
    expect([limit.running, limit.waiting]).toEqual([0, 0]);
  });

  it('refuses a number of slots that is not a positive integer', () => {
    for (const slots of [0, -1, 1.5, Number.NaN]) expect(() => new ConcurrencyLimit(slots)).toThrow(RangeError);
  });
});
