import { decodeFragment, type ReportFragment } from '../../reports/ReportFragment.js';
import type { ReportFragments } from '../ports/ReportFragments.js';

/** Downloads running at once. */
const concurrency = 4;
/**
 * Fragments downloaded (or downloading) and not yet taken, at most: 64 fragments of 500-record
 * batches are about 10 MB. They are held as bytes, which the files are made of anyway (a file
 * keeps each fragment's row groups as they are), and decoded only when taken. A day of up to 64
 * batches is downloaded whole while it is listed, so the files are written without waiting for
 * one; on a larger day the rest download as the files take them.
 */
const defaultWindow = 64;

/**
 * Downloads the staged fragments of a day's batches while the reconciliation is still listing the
 * day (the index lists a day's batches before its transactions), so that writing the files after
 * the result finds the first ones downloaded. Holds at most `window` fragments not yet
 * taken; taking one lets the next download start, and taking one not started yet starts it at once.
 */
export class FragmentPrefetch {
  private readonly downloads = new Map<string, Promise<Uint8Array | undefined>>();
  private readonly waiting = new Map<string, (value: Promise<Uint8Array | undefined>) => void>();
  private active = 0;
  /** Started and not taken yet. */
  private held = 0;

  constructor(
    private readonly partnerId: string,
    private readonly fragments: Pick<ReportFragments, 'get'>,
    private readonly window = defaultWindow,
  ) {}

  /** Queues the download of a batch's fragment (once per batch). */
  want(batchId: string): void {
    if (this.downloads.has(batchId)) return;
    const download = new Promise<Uint8Array | undefined>((resolve) => {
      this.waiting.set(batchId, resolve);
    });
    // Awaited by whoever takes it; a download nobody takes must not report an unhandled rejection.
    download.catch(() => undefined);
    this.downloads.set(batchId, download);
    this.pump();
  }

  /**
   * The batch's fragment (undefined: none staged, or not of the current format), if it was
   * wanted; undefined otherwise.
   */
  take(batchId: string): Promise<ReportFragment | undefined> | undefined {
    const download = this.downloads.get(batchId);
    if (download === undefined) return undefined;
    this.downloads.delete(batchId);
    const resolve = this.waiting.get(batchId);
    if (resolve) {
      // Needed now: started ahead of the queue, whatever the window holds.
      this.waiting.delete(batchId);
      this.start(batchId, resolve);
    }
    this.held -= 1;
    this.pump();
    // Decoded only when taken: a decoded fragment is about twice its bytes in objects, which
    // waiting in the window would outlive young-generation collections and be promoted.
    return download.then((bytes) => bytes && decodeFragment(bytes));
  }

  private pump(): void {
    while (this.active < concurrency && this.held < this.window) {
      const next = this.waiting.entries().next();
      if (next.done) return;
      const [batchId, resolve] = next.value;
      this.waiting.delete(batchId);
      this.start(batchId, resolve);
    }
  }

  private start(batchId: string, resolve: (value: Promise<Uint8Array | undefined>) => void): void {
    this.active += 1;
    this.held += 1;
    const download: Promise<Uint8Array | undefined> = this.fragments.get(this.partnerId, batchId);
    resolve(download);
    void download
      .catch(() => undefined)
      .finally(() => {
        this.active -= 1;
        this.pump();
      });
  }
}
