import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { ContainerClient } from '@azure/storage-blob';
import { storeDayDatasets, type ReportDataset } from '../reports/reportDatasets.js';
import { partnerPrefix } from '../reports/reportBlobName.js';
import { printable } from './printable.js';
import { Refusal } from './Refusal.js';

const datasets: readonly ReportDataset[] = [...storeDayDatasets, 'store_days'];

/** The service's own bookkeeping in the reports container (store-day markers, fragments): not report files. */
const statePrefix = '_state/';

/**
 * `reports download <folder> [--partner <partner_id>]`: copies the report files from the reports
 * container into `folder`, each at its blob name, so that DuckDB, Spark or pandas can read the
 * Hive-partitioned tree from disk. Locally the files live inside the storage emulator, which keeps
 * them in a format of its own. With a partner, only the files under that partner's prefix of
 * each dataset are listed and copied. Returns the number of files written.
 */
export async function downloadReports(container: ContainerClient, folder: string, partnerId?: string): Promise<number> {
  const root = path.resolve(folder);
  const prefixes = partnerId === undefined ? [undefined] : datasets.map((dataset) => partnerPrefix(dataset, partnerId));
  let written = 0;
  for (const prefix of prefixes) {
    for await (const blob of container.listBlobsFlat(prefix === undefined ? {} : { prefix })) {
      if (blob.name.startsWith(statePrefix)) continue;
      const file = path.resolve(root, ...blob.name.split('/'));
      // Every name the service writes encodes its ids, so it stays inside; anything else is refused.
      if (!file.startsWith(root + path.sep)) throw new Refusal(`the reports container holds a name that would leave ${printable(folder)}`);
      await mkdir(path.dirname(file), { recursive: true });
      await container.getBlockBlobClient(blob.name).downloadToFile(file);
      written += 1;
    }
  }
  return written;
}
