import { randomUUID } from 'node:crypto';
import { odata, TableClient } from '@azure/data-tables';
import type { PipelinePolicy, PipelineRequest, PipelineResponse, SendRequest } from '@azure/core-rest-pipeline';
import { describe, expect, inject, it } from 'vitest';
import { StorageError } from '../../src/errors/StorageError.js';
import { listEntityPages } from '../../src/storage/listEntityPages.js';
import { createStorageClients, ensureStorage } from '../../src/storage/StorageClients.js';
import { writeVersionedRows } from '../../src/storage/writeVersionedRows.js';
import { azuriteConfig } from '../support/azuriteConfig.js';

/** Notes every table query that goes through the client's pipeline, with the headers it was signed with. */
class QueryRecorder implements PipelinePolicy {
  readonly name = 'query-recorder';
  readonly queries: { url: string; signed: boolean }[] = [];

  async sendRequest(request: PipelineRequest, next: SendRequest): Promise<PipelineResponse> {
    if (request.method === 'GET' && request.url.includes('()')) {
      this.queries.push({ url: request.url, signed: request.headers.has('authorization') });
    }
    return next(request);
  }
}

async function collect(table: TableClient, filter: string, select?: readonly string[]): Promise<Record<string, unknown>[][]> {
  const pages: Record<string, unknown>[][] = [];
  for await (const page of listEntityPages(table, select ? { filter, select } : { filter })) pages.push(page);
  return pages;
}

describe('listEntityPages', () => {
  it("lists a partition of 2,300 rows in storage's pages, through the client's own pipeline, as the SDK reads them", async () => {
    const recorder = new QueryRecorder();
    const storage = createStorageClients(azuriteConfig(), { policy: recorder });
    await ensureStorage(storage);
    const table = storage.tables.tradeRecords;
    const partitionKey = `pages-${randomUUID()}`;
    const rows = Array.from({ length: 2300 }, (_, i) => ({
      rowKey: `r${String(i).padStart(5, '0')}`,
      version: 1,
      last_modified_at: '2026-03-01T00:00:00Z',
      properties: {
        version: 1 + (i % 7),
        total: `${i}.05`,
        flag: i % 2 === 0,
        note: `caf\u00e9 "${i}" & ü`,
        ...(i % 3 === 0 ? { only: 'some' } : {}),
      },
    }));
    await writeVersionedRows(table, partitionKey, rows);
    // A row of another partition is never listed.
    await writeVersionedRows(table, `${partitionKey}x`, rows.slice(0, 1));

    const filter = odata`PartitionKey eq ${partitionKey}`;
    recorder.queries.length = 0;
    const pages = await collect(table, filter, ['RowKey', 'version', 'total', 'flag', 'note', 'only']);
    expect(pages.map((p) => p.length)).toEqual([1000, 1000, 300]);
    expect(recorder.queries).toHaveLength(3);
    expect(recorder.queries.every((q) => q.signed)).toBe(true);
    expect(recorder.queries.slice(1).every((q) => q.url.includes('NextPartitionKey='))).toBe(true);

    const sdk: Record<string, unknown>[] = [];
    for await (const e of table.listEntities({ queryOptions: { filter } })) {
      sdk.push({ RowKey: e.rowKey, version: e.version, total: e.total, flag: e.flag, note: e.note, only: e.only ?? null });
    }
    // A selected column a row does not have may come back null or absent: both read as "not there".
    const listed = pages.flat().map((e) => ({ ...e, only: e.only ?? null }));
    expect(listed).toEqual(sdk);
    expect(listed[3]).toEqual({ RowKey: 'r00003', version: 4, total: '3.05', flag: false, note: 'caf\u00e9 "3" & ü', only: 'some' });
  });

  it('turns a refused query into a StorageError with the status and storage code', async () => {
    const name = `missing${randomUUID().replace(/-/g, '').slice(0, 12)}`;
    const table = TableClient.fromConnectionString(inject('azuriteConnectionString'), name, { allowInsecureConnection: true });
    const listing = collect(table, odata`PartitionKey eq ${'x'}`);
    await expect(listing).rejects.toBeInstanceOf(StorageError);
    await expect(listing).rejects.toMatchObject({ kind: 'refused', statusCode: 404, code: 'TableNotFound' });
  });
});
