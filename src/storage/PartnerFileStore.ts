import type { ContainerClient } from '@azure/storage-blob';
import { partnerFileBlobName } from '../reports/reportBlobName.js';
import type { PartnerDataset } from '../reports/reportDatasets.js';
import type { PartnerFiles, PartnerFileWrite } from '../services/ports/PartnerFiles.js';
import { isNotFound } from './storageErrors.js';

/** Blob metadata holding what the file was built from (a digest), to skip rewriting it unchanged. */
const contentKeyName = 'contentkey';
const parquetContentType = 'application/vnd.apache.parquet';

/**
 * The partners' master-data files (stores, products, transaction-type mappings) in the reports
 * container. Each is replaced whole by one Put Blob (a reader sees the old file or the new one).
 * One timer writes them, on one instance at a time; a write by the HQ tool meanwhile builds from
 * the same stored data, so whichever lands last is current.
 */
export class PartnerFileStore implements PartnerFiles {
  constructor(private readonly container: ContainerClient) {}

  async write(
    dataset: PartnerDataset,
    partnerId: string,
    contentKey: string,
    build: () => Promise<Uint8Array | undefined>,
  ): Promise<PartnerFileWrite> {
    const blob = this.container.getBlockBlobClient(partnerFileBlobName(dataset, partnerId));
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
