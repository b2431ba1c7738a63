import { createHash } from 'node:crypto';
import type { ParquetFileAssembly } from './ParquetFileAssembly.js';

/**
 * The id of a store-day's set of files: SHA-256 (hex) of what each of them holds, in dataset
 * order, footers aside. Every file of the set carries it in its footer and the store-day's
 * store_days row names it, so a reader can tell files of one build from a mix of two; a build
 * whose files hold the same rows as the last gets the same id, and leaves the files as they are.
 */
export function storeDayFilesId(files: readonly ParquetFileAssembly[]): string {
  const hash = createHash('sha256');
  for (const file of files) file.hashInto(hash);
  return hash.digest('hex');
}
