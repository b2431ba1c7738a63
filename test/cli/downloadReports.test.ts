/**
 * Folders on a file system that ignores letter case (macOS, Windows): two stores of one partner
 * whose ids differ only in case would land in one folder, the later file overwriting the earlier.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ContainerClient } from '@azure/storage-blob';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { downloadReports } from '../../src/cli/downloadReports.js';
import { Refusal } from '../../src/cli/Refusal.js';
import { azuriteContainer } from '../support/azuriteClients.js';

let container: ContainerClient;
const folders: string[] = [];
const names = ['AB', 'ab'].map((store) => `sales_lines/partner_id=p-1/store_id=${store}/business_date=2026-03-01/part-0.parquet`);

beforeAll(async () => {
  container = await azuriteContainer(`reports-${randomUUID()}`);
  for (const name of names) await container.getBlockBlobClient(name).upload(name, name.length);
});
afterAll(async () => {
  await container.delete();
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

function folder(): string {
  const made = mkdtempSync(path.join(tmpdir(), 'hq-reports-case-'));
  folders.push(made);
  return made;
}

it('refuses, naming both files and copying nothing, where the file system would make them one', async () => {
  const root = folder();
  writeFileSync(path.join(root, 'kept.txt'), 'an analyst note');
  const refused = await downloadReports(container, root, undefined, true).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(Refusal);
  expect((refused as Refusal).message).toContain('store_id=AB');
  expect((refused as Refusal).message).toContain('store_id=ab');
  expect((refused as Refusal).message).toContain('ignores letter case');
  expect(readdirSync(root)).toEqual(['kept.txt']);
});

it('copies both where the file system tells them apart', async () => {
  const root = folder();
  expect(await downloadReports(container, root, undefined, false)).toEqual({ copied: 2, removed: 0 });
  expect(readdirSync(path.join(root, 'sales_lines', 'partner_id=p-1')).sort()).toEqual(['store_id=AB', 'store_id=ab']);
});
