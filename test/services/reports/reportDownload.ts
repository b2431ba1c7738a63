import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ContainerClient } from '@azure/storage-blob';
import { DuckDb } from '../../support/duckDb.js';

/** The blob names of every report file of the container, sorted (the `_state/` markers left out). */
export async function reportNames(container: ContainerClient): Promise<string[]> {
  const names: string[] = [];
  for await (const blob of container.listBlobsFlat()) {
    if (!blob.name.startsWith('_state/')) names.push(blob.name);
  }
  return names.sort();
}

/**
 * Downloads every report file of the container into a fresh folder at its blob name, as an
 * analyst copying the container would (the `_state/` markers are not report files and stay behind).
 */
export async function downloadReports(container: ContainerClient): Promise<{ root: string; names: string[] }> {
  const root = mkdtempSync(path.join(tmpdir(), 'reports-download-'));
  const names: string[] = [];
  for await (const blob of container.listBlobsFlat()) {
    if (blob.name.startsWith('_state/')) continue;
    names.push(blob.name);
    const file = path.join(root, blob.name);
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, await container.getBlockBlobClient(blob.name).downloadToBuffer());
  }
  return { root, names: names.sort() };
}

/**
 * Downloads the container's report files, opens them in DuckDB for `query` (given the database and
 * the download's folder, for `dataset`), and removes the download afterwards.
 */
export async function queryReports<T>(container: ContainerClient, query: (db: DuckDb, root: string) => Promise<T>): Promise<T> {
  const { root } = await downloadReports(container);
  const db = await DuckDb.open();
  try {
    return await query(db, root);
  } finally {
    db.close();
    rmSync(root, { recursive: true, force: true });
  }
}
