import { randomUUID } from 'node:crypto';
import type { PipelinePolicy, PipelineRequest, PipelineResponse, SendRequest } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';
import { StorageError } from '../../src/errors/StorageError.js';
import { createStorageClients, ensureStorage } from '../../src/storage/StorageClients.js';
import { entityRequestSize, transactionChunks } from '../../src/storage/transactionChunks.js';
import { sameColumnsExcept, writeVersionedRows, type VersionedRow } from '../../src/storage/writeVersionedRows.js';
import { azuriteConfig } from '../support/azuriteConfig.js';

/**
 * Records every table transaction's request size, once however often the pipeline retries it (the
 * retry policy sends the same request object again); can refuse the n-th one while the others are held back.
 */
class TransactionRecorder implements PipelinePolicy {
  readonly name = 'transaction-recorder';
  readonly sizes: number[] = [];
  readonly #seen = new WeakSet<PipelineRequest>();
  readonly finished: number[] = [];
  refuse: number | undefined;
  #refusalAnswered: () => void = () => undefined;
  readonly #refusal = new Promise<void>((resolve) => {
    this.#refusalAnswered = resolve;
  });

  async sendRequest(request: PipelineRequest, next: SendRequest): Promise<PipelineResponse> {
    if (!(request.method === 'POST' && request.url.includes('$batch')) || this.#seen.has(request)) return next(request);
    this.#seen.add(request);
    const n = this.sizes.length;
    const body = request.body;
    this.sizes.push(typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body instanceof Uint8Array ? body.byteLength : -1);
    if (n === this.refuse) {
      this.#refusalAnswered();
      return {
        request,
        status: 400,
        headers: request.headers,
        bodyAsText: '{"odata.error":{"code":"InvalidInput","message":{"value":"refused"}}}',
      };
    }
    // With a refusal armed, the others wait until it is answered, so they are still running when it comes back.
    if (this.refuse !== undefined) await this.#refusal;
    const response = await next(request);
    this.finished.push(n);
    return response;
  }
}

function storageWith(policy: PipelinePolicy) {
  return createStorageClients(azuriteConfig(), { policy });
}

function rows(count: number, textLength: number, version = 1): VersionedRow[] {
  return Array.from({ length: count }, (_, i) => ({
    rowKey: `r${String(i).padStart(4, '0')}`,
    version,
    last_modified_at: '2026-03-01T00:00:00Z',
    properties: { version, lastModifiedAt: '2026-03-01T00:00:00Z', text: 'x'.repeat(textLength) },
  }));
}

async function countRows(table: ReturnType<typeof storageWith>['tables']['tradeRecords'], partitionKey: string): Promise<number> {
  let n = 0;
  for await (const _ of table.listEntities({ queryOptions: { filter: `PartitionKey eq '${partitionKey}'`, select: ['RowKey'] } })) n++;
  return n;
}

describe('transactionChunks', () => {
  it('cuts at 100 items and at about 4 MiB, keeping the order', () => {
    const counted = transactionChunks(
      Array.from({ length: 250 }, (_, i) => i),
      () => 10,
    );
    expect(counted.map((c) => c.length)).toEqual([100, 100, 50]);
    expect(counted.flat()).toEqual(Array.from({ length: 250 }, (_, i) => i));
    const sized = transactionChunks(
      Array.from({ length: 10 }, (_, i) => i),
      () => 1024 * 1024,
    );
    expect(sized.map((c) => c.length)).toEqual([3, 3, 3, 1]);
    expect(transactionChunks([], () => 1)).toEqual([]);
  });
});

describe('entityRequestSize', () => {
  it('measures a row the same whether its keys are inside it or given apart', () => {
    const properties = { version: 3, note: 'caf\u00e9 "quoted"', flag: false, blank: null, bytes: new Uint8Array(10) };
    const keys = { partitionKey: 'P|\u00fc', rowKey: 'T-1/2' };
    expect(entityRequestSize(properties, keys)).toBe(entityRequestSize({ ...properties, ...keys }));
    expect(entityRequestSize({ ...properties, partitionKey: 'stale', rowKey: 'stale' }, keys)).toBe(
      entityRequestSize({ ...properties, ...keys }),
    );
  });

  it('counts each key four times over and each string as its UTF-8 JSON', () => {
    const base = entityRequestSize({});
    expect(entityRequestSize({ rowKey: 'ab' })).toBe(base + 'rowKey'.length + 48 + 4 * 4);
    expect(entityRequestSize({ s: '\u00e9"' })).toBe(base + 1 + 48 + 6);
  });
});

describe('writeVersionedRows', () => {
  it('splits by count: 250 small rows and an extra action take three transactions', async () => {
    const recorder = new TransactionRecorder();
    const storage = storageWith(recorder);
    await ensureStorage(storage);
    const partitionKey = `count-${randomUUID()}`;
    const extra = ['upsert', { partitionKey, rowKey: '!extra', note: 'rides along' }, 'Replace'] as const;
    await writeVersionedRows(storage.tables.tradeRecords, partitionKey, rows(250, 10), [extra as never]);
    expect(recorder.sizes).toHaveLength(3);
    expect(await countRows(storage.tables.tradeRecords, partitionKey)).toBe(251);
  });

  it('splits by size: 30 rows of ~190 KB each (5.7 MB) go in transactions of at most 4 MiB, and every row is stored', async () => {
    const recorder = new TransactionRecorder();
    const storage = storageWith(recorder);
    await ensureStorage(storage);
    const partitionKey = `size-${randomUUID()}`;
    // Six properties of 30,000 characters: under a value's and a row's limits.
    const big = rows(30, 0).map((row) => ({
      ...row,
      properties: { ...row.properties, ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`c${i}`, '漢'.repeat(10_000)])) },
    }));
    await writeVersionedRows(storage.tables.tradeRecords, partitionKey, big);
    expect(recorder.sizes.length).toBeGreaterThanOrEqual(2);
    expect(Math.max(...recorder.sizes)).toBeGreaterThan(3 * 1024 * 1024);
    for (const size of recorder.sizes) expect(size).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(await countRows(storage.tables.tradeRecords, partitionKey)).toBe(30);
    // Again with a higher version: the same split on the update path, rows replaced.
    recorder.sizes.length = 0;
    await writeVersionedRows(
      storage.tables.tradeRecords,
      partitionKey,
      big.map((row) => ({ ...row, version: 2, properties: { ...row.properties, version: 2 } })),
    );
    for (const size of recorder.sizes) expect(size).toBeLessThanOrEqual(4 * 1024 * 1024);
    const stored = await storage.tables.tradeRecords.getEntity<{ version: number }>(partitionKey, 'r0029');
    expect(stored.version).toBe(2);
  });

  it('on an equal stamp keeps the stored row (reporting other content), unless told to replace it; an older stamp is stale either way', async () => {
    const storage = storageWith(new TransactionRecorder());
    await ensureStorage(storage);
    const table = storage.tables.tradeRecords;
    const partitionKey = `tie-${randomUUID()}`;
    const copy = (text: string, lastModifiedAt = '2026-03-01T00:00:00Z'): VersionedRow[] => [
      { rowKey: 'r0', version: 1, last_modified_at: lastModifiedAt, properties: { version: 1, lastModifiedAt, text } },
    ];
    const storedText = async () => (await table.getEntity<{ text: string }>(partitionKey, 'r0')).text;
    await writeVersionedRows(table, partitionKey, copy('first'));

    expect(await writeVersionedRows(table, partitionKey, copy('second'))).toEqual({
      staleRowKeys: new Set(),
      conflictingRowKeys: new Set(),
      keptRows: new Map(),
    });
    expect(await storedText()).toBe('first');
    // Told to compare content, it reports a tie whose other columns differ, and only that; a tie
    // that says the same is kept, with the stored row for the caller to compare what it left out.
    const content = { sameContent: sameColumnsExcept([]) };
    expect((await writeVersionedRows(table, partitionKey, copy('second'), [], content)).conflictingRowKeys).toEqual(new Set(['r0']));
    const same = await writeVersionedRows(table, partitionKey, copy('first'), [], content);
    expect(same.conflictingRowKeys).toEqual(new Set());
    expect([...same.keptRows].map(([rowKey, stored]) => [rowKey, stored.text])).toEqual([['r0', 'first']]);
    expect(await storedText()).toBe('first');

    expect((await writeVersionedRows(table, partitionKey, copy('second'), [], { replaceOnTie: true })).staleRowKeys.size).toBe(0);
    expect(await storedText()).toBe('second');

    const older = await writeVersionedRows(table, partitionKey, copy('older', '2026-02-28T00:00:00Z'), [], { replaceOnTie: true });
    expect([...older.staleRowKeys]).toEqual(['r0']);
    expect(await storedText()).toBe('second');
  });

  it('copies of one stamp written at once, told to replace on a tie, all succeed and one of them stands', async () => {
    const storage = storageWith(new TransactionRecorder());
    await ensureStorage(storage);
    const table = storage.tables.tradeRecords;
    const partitionKey = `ties-${randomUUID()}`;
    const lastModifiedAt = '2026-03-01T00:00:00Z';
    const copy = (text: string): VersionedRow[] => [
      { rowKey: 'r0', version: 1, last_modified_at: lastModifiedAt, properties: { version: 1, lastModifiedAt, text } },
    ];
    // Stored once already, so that every copy meets the row and replaces it under its ETag.
    await writeVersionedRows(table, partitionKey, copy('stored'));
    for (let round = 0; round < 3; round++) {
      const texts = Array.from({ length: 16 }, (_, i) => `copy-${round}-${i}`);
      const written = await Promise.allSettled(
        texts.map((text) => writeVersionedRows(table, partitionKey, copy(text), [], { replaceOnTie: true })),
      );
      expect(written.filter((settled) => settled.status === 'rejected')).toEqual([]);
      expect(texts).toContain((await table.getEntity<{ text: string }>(partitionKey, 'r0')).text);
    }
  });

  it('when one transaction is refused, the others have finished before the error is raised', async () => {
    const recorder = new TransactionRecorder();
    recorder.refuse = 0;
    const storage = storageWith(recorder);
    await ensureStorage(storage);
    const partitionKey = `refused-${randomUUID()}`;
    const error = await writeVersionedRows(storage.tables.tradeRecords, partitionKey, rows(300, 10)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).kind).toBe('invalid');
    expect(recorder.finished.sort()).toEqual([1, 2]);
    expect(await countRows(storage.tables.tradeRecords, partitionKey)).toBe(200);
  });
});
