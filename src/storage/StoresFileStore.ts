import type { ContainerClient } from '@azure/storage-blob';
import { storesBlobName } from '../reports/reportBlobName.js';
import type { StoresFiles, StoresFileWrite } from '../services/ports/StoresFiles.js';
import { isNotFound } from './storageErrors.js';

/** Blob metadata holding what the file was built from (a digest), to skip rewriting it unchanged. */
const contentKeyName = 'contentkey';
const parquetContentType = 'application/vnd.apache.parquet';

/**
 * The partners' stores files in the reports container. Each is replaced whole by one Put Blob
 * (a reader sees the old file or the new one). One timer writes them, on one instance at a time;
 * a write by the HQ tool meanwhile builds from the same tables, so whichever lands last is current.
 */
export class StoresFileStore implements StoresFiles {
  constructor(private readonly container: ContainerClient) {}

  async write(partnerId: string, contentKey: string, build: () => Promise<Uint8Array | undefined>): Promise<StoresFileWrite> {
    const blob = this.container.getBlockBlobClient(storesBlobName(partnerId));
    let stored: string | undefined;
    let exists = true;
    try {
      stored = (await blob.getProperties()).metadata?.[contentKeyName];
    } catch (error) {
      if (!isNotFound(error)) throw error;
      exists = false;
    }
    if (exists && stored === contentKey) return 'unchanged';
    const bytes = await build();
    if (!bytes) {
      if (!exists) return 'none';
      await blob.deleteIfExists();
      return 'removed';
    }
    await blob.uploadData(bytes, { blobHTTPHeaders: { blobContentType: parquetContentType }, metadata: { [contentKeyName]: contentKey } });
    return 'written';
  }
}
