import type { ContainerClient } from '@azure/storage-blob';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';
import { downloadIfExists } from './downloadIfExists.js';
import { encodeKeyPart } from './tableKey.js';

/**
 * The exact bytes of every push, one blob per (partner, batch_id), written with `If-None-Match: *`.
 * The blob is the durable source of truth a retry or the sweep completes from. The one overwrite is
 * {@link RawBatchStore.replaceOrphan}: a body never acknowledged, replaced under its ETag.
 */
export class RawBatchStore {
  constructor(private readonly container: ContainerClient) {}

  /** Stores the body unless a blob for this batch exists already; returns whether it was new. */
  async putOnce(partnerId: string, batchId: string, body: Uint8Array, bodyHash: string): Promise<boolean> {
    return this.upload(partnerId, batchId, body, bodyHash, { ifNoneMatch: '*' });
  }

  /**
   * Replaces the stored body with this one if it is still the orphan (the body whose hash is
   * `orphanHash`, which no entry of the ledger ever acknowledged), under the ETag it was read
   * with; false when the blob is gone or holds another body.
   */
  async replaceOrphan(partnerId: string, batchId: string, body: Uint8Array, bodyHash: string, orphanHash: string): Promise<boolean> {
    let etag: string | undefined;
    try {
      const properties = await this.blob(partnerId, batchId).getProperties();
      if (properties.metadata?.sha256 !== orphanHash) return false;
      etag = properties.etag;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
    if (etag === undefined) return false;
    return this.upload(partnerId, batchId, body, bodyHash, { ifMatch: etag });
  }

  /** Uploads under a condition; false when the condition does not hold. */
  private async upload(
    partnerId: string,
    batchId: string,
    body: Uint8Array,
    bodyHash: string,
    conditions: { ifNoneMatch: '*' } | { ifMatch: string },
  ): Promise<boolean> {
    try {
      await this.blob(partnerId, batchId).uploadData(body, {
        conditions,
        metadata: { sha256: bodyHash },
        blobHTTPHeaders: { blobContentType: 'application/json' },
      });
      return true;
    } catch (error) {
      if (isConflict(error) || isPreconditionFailed(error)) return false;
      // The blob to replace was deleted meanwhile (a missing container still throws on putOnce).
      if ('ifMatch' in conditions && isNotFound(error)) return false;
      throw error;
    }
  }

  async get(partnerId: string, batchId: string): Promise<Buffer | undefined> {
    return downloadIfExists(this.blob(partnerId, batchId));
  }

  /** The SHA-256 recorded with the stored body, or undefined when no body is stored. */
  async storedHash(partnerId: string, batchId: string): Promise<string | undefined> {
    try {
      const properties = await this.blob(partnerId, batchId).getProperties();
      return properties.metadata?.sha256;
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  private blob(partnerId: string, batchId: string) {
    // A UUID names the same batch in upper or lower case, as in the batch ledger.
    return this.container.getBlockBlobClient(`${encodeKeyPart(partnerId)}/${encodeKeyPart(batchId.toLowerCase())}.json`);
  }
}
