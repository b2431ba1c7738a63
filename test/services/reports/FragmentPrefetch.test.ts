import { describe, expect, it } from 'vitest';
import { FragmentPrefetch } from '../../../src/services/reports/FragmentPrefetch.js';

/** Fragment downloads that finish only when the test says so. */
class HeldDownloads {
  readonly started: string[] = [];
  private readonly finish = new Map<string, (bytes: Buffer | undefined) => void>();

  get(_partnerId: string, batchId: string): Promise<Buffer | undefined> {
    this.started.push(batchId);
    return new Promise((resolve) => this.finish.set(batchId, resolve));
  }

  /** Ends the download with no fragment staged (the prefetch then yields undefined). */
  end(batchId: string): void {
    this.finish.get(batchId)?.(undefined);
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('FragmentPrefetch', () => {
  it('runs 4 downloads at once and holds at most its window of fragments not yet taken', async () => {
    const downloads = new HeldDownloads();
    const prefetch = new FragmentPrefetch('p', downloads, 6);
    const ids = Array.from({ length: 12 }, (_, i) => `b${i}`);
    for (const id of ids) prefetch.want(id);
    expect(downloads.started).toEqual(ids.slice(0, 4));
    for (const id of ids.slice(0, 4)) downloads.end(id);
    await settle();
    // Four done and held, two running: the window of six is full until one is taken.
    expect(downloads.started).toEqual(ids.slice(0, 6));
    for (const id of ids.slice(4, 6)) downloads.end(id);
    await settle();
    expect(downloads.started).toEqual(ids.slice(0, 6));

    expect(await prefetch.take('b0')).toBeUndefined();
    await settle();
    expect(downloads.started).toEqual(ids.slice(0, 7));
  });

  it('starts a batch taken before its turn at once, whatever the window holds', async () => {
    const downloads = new HeldDownloads();
    const prefetch = new FragmentPrefetch('p', downloads, 2);
    for (const id of ['b0', 'b1', 'b2', 'b3']) prefetch.want(id);
    expect(downloads.started).toEqual(['b0', 'b1']);
    const taken = prefetch.take('b3');
    expect(downloads.started).toEqual(['b0', 'b1', 'b3']);
    downloads.end('b3');
    expect(await taken).toBeUndefined();
    // A batch never wanted is not the prefetch's to download.
    expect(prefetch.take('other')).toBeUndefined();
    expect(downloads.started).toEqual(['b0', 'b1', 'b3']);
  });
});
