import type { ContainerClient } from '@azure/storage-blob';
import { encodePartitionValue } from '../reports/encodePartitionValue.js';
import { downloadIfExists } from './downloadIfExists.js';

/**
 * Where fragments live in the reports container. infra/ deletes blobs under this prefix some days
 * after their last write (a lifecycle rule): a day reconciled after that converts its batches again.
 * @internal read by the test that keeps infra/'s lifecycle rule on the same prefix.
 */
export const reportFragmentsPrefix = '_state/fragments/';

/** Where one partner's fragments live in the reports container. */
export function partnerFragmentsPrefix(partnerId: string): string {
  return `${reportFragmentsPrefix}partner_id=${encodePartitionValue(partnerId)}/`;
}

/**
 * Report fragments, one blob per (partner, batch): a batch's transactions already converted to
 * report rows, staged in the background after the batch is committed so that reconciling a day
 * only assembles them. Kept under `_state/` in the reports container, named `.fragment`: not a
 * report file, and never matched by a reader's `*.parquet` pattern. A fragment is a cache of the
 * raw batch: a missing or outdated one is rebuilt from the raw batch when a day is reconciled.
 */
export class ReportFragmentStore {
  constructor(private readonly container: ContainerClient) {}

  /** The fragment's bytes (one request: a day's fragments are read one after another), or undefined when none is staged. */
  async get(partnerId: string, batchId: string): Promise<Buffer | undefined> {
    return downloadIfExists(this.blob(partnerId, batchId));
  }

  async exists(partnerId: string, batchId: string): Promise<boolean> {
    return this.blob(partnerId, batchId).exists();
  }

  /** Replaces the fragment whole (one upload). */
  async put(partnerId: string, batchId: string, bytes: Uint8Array): Promise<void> {
    await this.blob(partnerId, batchId).uploadData(bytes, { blobHTTPHeaders: { blobContentType: 'application/octet-stream' } });
  }

  private blob(partnerId: string, batchId: string) {
    // A UUID names the same batch in upper or lower case, as in the batch ledger.
    return this.container.getBlockBlobClient(`${partnerFragmentsPrefix(partnerId)}${encodePartitionValue(batchId.toLowerCase())}.fragment`);
  }
}
