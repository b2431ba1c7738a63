import type { ContainerClient } from '@azure/storage-blob';
import { encodePartitionValue } from '../reports/encodePartitionValue.js';
import { isNotFound } from './storageErrors.js';
import { toStorageError } from './translateStorageErrors.js';

/**
 * Report fragments, one blob per (partner, batch): a batch's transactions already converted to
 * report rows, staged in the background after the batch is committed so that reconciling a day
 * only assembles them. Kept under `_state/` in the reports container, named `.fragment`: not a
 * report file, and never matched by a reader's `*.parquet` pattern. A fragment is a cache of the
 * raw batch: a missing or outdated one is rebuilt from the raw batch when a day is reconciled.
 */
export class ReportFragmentStore {
  constructor(private readonly container: ContainerClient) {}

  /**
   * The fragment's bytes, or undefined when none is staged. One request: a day's fragments are
   * read one after another once its reconciliation is done, and `downloadToBuffer` would ask for
   * each blob's size first.
   */
  async get(partnerId: string, batchId: string): Promise<Buffer | undefined> {
    let body: NodeJS.ReadableStream | undefined;
    let length: number | undefined;
    try {
      const response = await this.blob(partnerId, batchId).download();
      body = response.readableStreamBody;
      length = response.contentLength;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    if (!body) return Buffer.alloc(0);
    const chunks: Buffer[] = [];
    try {
      // The SDK's stream resumes a download cut off by the network (up to 5 times) on its own.
      for await (const chunk of body) chunks.push(chunk as Buffer);
    } catch (error) {
      throw toStorageError(error);
    }
    return chunks.length === 1 && chunks[0] ? chunks[0] : Buffer.concat(chunks, length);
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
    return this.container.getBlockBlobClient(
      `_state/fragments/partner_id=${encodePartitionValue(partnerId)}/${encodePartitionValue(batchId.toLowerCase())}.fragment`,
    );
  }
}
