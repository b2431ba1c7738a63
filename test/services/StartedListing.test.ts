import { describe, expect, it } from 'vitest';
import { StartedListing } from '../../src/services/StartedListing.js';

/** A listing of `items` that notes each step asked of it and whether it was stopped. */
function listing(items: readonly number[]) {
  const seen = { steps: 0, stopped: false };
  async function* source(): AsyncGenerator<number> {
    try {
      for (const item of items) {
        seen.steps += 1;
        yield await Promise.resolve(item);
      }
    } finally {
      seen.stopped = true;
    }
  }
  return { seen, source: source() };
}

describe('StartedListing', () => {
  it('takes its first step when made, then hands out every item once, in order', async () => {
    const { seen, source } = listing([1, 2, 3]);
    const started = new StartedListing(source);
    await Promise.resolve();
    expect(seen.steps).toBe(1);
    const items: number[] = [];
    for await (const item of started) items.push(item);
    expect(items).toEqual([1, 2, 3]);
    expect(seen.stopped).toBe(true);
  });

  it('stops the listing when closed unread, and when the loop reading it leaves early', async () => {
    const unread = listing([1, 2, 3]);
    await new StartedListing(unread.source).close();
    expect(unread.seen).toEqual({ steps: 1, stopped: true });

    const left = listing([1, 2, 3]);
    for await (const item of new StartedListing(left.source)) if (item === 2) break;
    expect(left.seen).toEqual({ steps: 2, stopped: true });
  });

  it('hands a failed first step to whoever reads it', async () => {
    // A listing whose first request fails.
    // eslint-disable-next-line require-yield
    async function* failing(): AsyncGenerator<number> {
      await Promise.resolve();
      throw new Error('storage is unavailable');
    }
    const started = new StartedListing(failing());
    await expect(async () => {
      for await (const item of started) expect(item).toBeUndefined();
    }).rejects.toThrow('storage is unavailable');
  });
});
