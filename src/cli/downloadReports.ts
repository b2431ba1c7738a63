import { mkdir, readdir, rmdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { ContainerClient } from '@azure/storage-blob';
import { reportDatasets } from '../reports/reportDatasets.js';
import { partnerPrefix } from '../reports/reportBlobName.js';
import { printable } from './printable.js';
import { Refusal } from './Refusal.js';

/** The service's own bookkeeping in the reports container (store-day markers, fragments): not report files. */
const statePrefix = '_state/';

export interface DownloadedReports {
  /** Files written, one per report file in the container (in scope). */
  readonly copied: number;
  /** Parquet files of the folder the container no longer holds, removed. */
  readonly removed: number;
}

/**
 * `reports download <folder> [--partner <partner_id>]`: makes `folder` a copy of the report files
 * in the reports container, each at its blob name, so that DuckDB, Spark or pandas can read the
 * Hive-partitioned tree from disk. Locally the files live inside the storage emulator, which keeps
 * them in a format of its own. With a partner, only the files under that partner's prefix of
 * each dataset are copied.
 *
 * A store-day's files are rewritten and removed as it is reconciled again (a dataset it has no rows
 * in any more loses its file), so a folder downloaded into before would otherwise keep such files
 * beside the new ones, and a reader of `**\/*.parquet` would count their rows twice. Within the
 * datasets (and partner) downloaded, every `.parquet` file the container no longer holds is
 * removed, with folders left empty; nothing else in the folder is touched.
 *
 * Where the file system ignores letter case (`foldsCase`: macOS and Windows by default), two names
 * that differ only in case (stores `AB` and `ab` of one partner) would be one file; that is refused
 * before anything is copied.
 */
export async function downloadReports(
  container: ContainerClient,
  folder: string,
  partnerId?: string,
  foldsCase = process.platform === 'darwin' || process.platform === 'win32',
): Promise<DownloadedReports> {
  const root = path.resolve(folder);
  const pathKey = (file: string) => (foldsCase ? file.normalize('NFC').toLowerCase() : file);
  const prefixes = reportDatasets.map((dataset) => (partnerId === undefined ? `${dataset}/` : partnerPrefix(dataset, partnerId)));
  // Every name is placed before anything is copied, so a folder that cannot hold them all is left as it was.
  const files = new Map<string, { blobName: string; file: string }>();
  for (const prefix of prefixes) {
    for await (const blob of container.listBlobsFlat({ prefix })) {
      if (blob.name.startsWith(statePrefix)) continue;
      const file = path.resolve(root, ...blob.name.split('/'));
      // Every name the service writes encodes its ids, so it stays inside; anything else is refused.
      if (!file.startsWith(root + path.sep)) throw new Refusal(`the reports container holds a name that would leave ${printable(folder)}`);
      const same = files.get(pathKey(file));
      if (same) {
        throw new Refusal(
          `${printable(same.blobName)} and ${printable(blob.name)} would be one file here, as this file system ignores letter case (ids that differ only in case): download into a folder on a case-sensitive file system (Linux, WSL)`,
        );
      }
      files.set(pathKey(file), { blobName: blob.name, file });
    }
  }
  for (const { blobName, file } of files.values()) {
    await mkdir(path.dirname(file), { recursive: true });
    await container.getBlockBlobClient(blobName).downloadToFile(file);
  }
  let removed = 0;
  const kept = new Set(files.keys());
  for (const prefix of prefixes) removed += await removeStale(path.resolve(root, ...prefix.split('/')), kept, pathKey);
  return { copied: files.size, removed };
}

/**
 * Removes the `.parquet` files below `dir` that are not in `kept`, then the folders left empty, `dir`
 * too; how many files. `pathKey` is a path as the file system tells paths apart: macOS and Windows
 * file systems ignore case (and macOS Unicode normalisation by default), so a file written as
 * `store_id=ab` lands in a folder created earlier as `store_id=AB`, and listing it gives that
 * spelling; compared as written, the file just copied would be taken for a stale one.
 */
async function removeStale(dir: string, kept: ReadonlySet<string>, pathKey: (file: string) => string): Promise<number> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw error;
  }
  let removed = 0;
  for (const entry of entries) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      removed += await removeStale(entryPath, kept, pathKey);
    } else if (entry.isFile() && entry.name.endsWith('.parquet') && !kept.has(pathKey(entryPath))) {
      await unlink(entryPath);
      removed += 1;
    }
  }
  if ((await readdir(dir)).length === 0) await rmdir(dir);
  return removed;
}
