import { describe, expect, it } from 'vitest';
import { mergePages } from '../../src/storage/mergePages.js';

/** A listing whose pages arrive when the test says, noting how many were requested. */
class ScriptedListing implements AsyncIterator<string> {
  requested = 0;
  returned = false;
  private readonly waiting: ((result: IteratorResult<string>) => void)[] = [];
  private readonly failing: ((error: Error) => void)[] = [];

  next(): Promise<IteratorResult<string>> {
    this.requested += 1;
    return new Promise((resolve, reject) => {
      this.waiting.push(resolve);
      this.failing.push(reject);
    });
  }

  return(): Promise<IteratorResult<string>> {
    this.returned = true;
    return Promise.resolve({ done: true, value: undefined });
  }

  deliver(page: string): void {
    this.failing.shift();
    this.waiting.shift()?.({ done: false, value: page });
  }

  end(): void {
    this.failing.shift();
    this.waiting.shift()?.({ done: true, value: undefined });
  }

  fail(error: Error): void {
    this.waiting.shift();
    this.failing.shift()?.(error);
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('mergePages', () => {
  it('hands pages out as they arrive, keeping one request running per listing', async () => {
    const a = new ScriptedListing();
    const b = new ScriptedListing();
    const merged = mergePages([a, b]);
    // Both first pages are requested before anyone reads.
    expect([a.requested, b.requested]).toEqual([1, 1]);

    const first = merged.next();
    b.deliver('b1');
    expect(await first).toEqual({ done: false, value: 'b1' });
    // b's next page was requested when b1 was handed out; a still has one request running.
    expect([a.requested, b.requested]).toEqual([1, 2]);

    a.deliver('a1');
    b.deliver('b2');
    await tick();
    const pages = [(await merged.next()).value, (await merged.next()).value];
    expect(pages.sort()).toEqual(['a1', 'b2']);
    expect([a.requested, b.requested]).toEqual([2, 3]);

    a.end();
    b.end();
    expect(await merged.next()).toEqual({ done: true, value: undefined });
  });

  it('fails with a failed listing and stops the others', async () => {
    const a = new ScriptedListing();
    const b = new ScriptedListing();
    const merged = mergePages([a, b]);
    const first = merged.next();
    a.fail(new Error('storage refused'));
    await expect(first).rejects.toThrow('storage refused');
    expect(b.returned).toBe(true);
  });

  it('stops every listing when the caller stops early', async () => {
    const a = new ScriptedListing();
    const b = new ScriptedListing();
    const merged = mergePages([a, b]);
    const first = merged.next();
    a.deliver('a1');
    await first;
    await merged.return(undefined);
    expect([a.returned, b.returned]).toEqual([true, true]);
  });
});
