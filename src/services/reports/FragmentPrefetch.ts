import { decodeFragment, type ReportFragment } from '../../reports/ReportFragment.js';
import type { ReportFragments } from '../ports/ReportFragments.js';

/** Downloads running at once. */
const concurrency = 4;

/**
 * Downloads the staged fragments of a day's batches while the reconciliation is still listing the
 * day (the index lists a day's batches before its transactions), so that writing the files after
 * the result mostly finds them downloaded. Each fragment is decoded as soon as it arrives, in the
 * time the listing spends waiting for its next page. Holds every fragment it downloaded until
 * taken: about a fifth of the raw batches' size.
 */
export class FragmentPrefetch {
  private readonly downloads = new Map<string, Promise<ReportFragment | undefined>>();
  private readonly waiting: { batchId: string; resolve: (value: Promise<ReportFragment | undefined>) => void }[] = [];
  private active = 0;

  constructor(
    private readonly partnerId: string,
    private readonly fragments: Pick<ReportFragments, 'get'>,
  ) {}

  /** Queues the download of a batch's fragment (once per batch). */
  want(batchId: string): void {
    if (this.downloads.has(batchId)) return;
    const download = new Promise<ReportFragment | undefined>((resolve) => {
      this.waiting.push({ batchId, resolve });
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
    this.downloads.delete(batchId);
    return download;
  }

  private pump(): void {
    while (this.active < concurrency) {
      const next = this.waiting.shift();
      if (!next) return;
      this.active += 1;
      const download = this.fragments.get(this.partnerId, next.batchId);
      next.resolve(download.then((bytes) => bytes && decodeFragment(bytes)));
      void download
        .catch(() => undefined)
        .finally(() => {
          this.active -= 1;
          this.pump();
        });
    }
  }
}
