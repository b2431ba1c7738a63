import type { ContainerClient } from '@azure/storage-blob';
import { partnerFragmentsPrefix } from '../src/storage/ReportFragmentStore.js';

/**
 * Removes every report fragment the sweep or a reconciliation staged for the partner, so that
 * the next reconciliation of its days converts each batch from its raw body; returns how many.
 */
export async function removeStagedFragments(reports: ContainerClient, partnerId: string): Promise<number> {
  let removed = 0;
  for await (const blob of reports.listBlobsFlat({ prefix: partnerFragmentsPrefix(partnerId) })) {
    await reports.deleteBlob(blob.name);
    removed += 1;
  }
  return removed;
}
