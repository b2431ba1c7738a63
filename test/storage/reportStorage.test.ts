import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ContainerClient } from '@azure/storage-blob';
import type { TableClient } from '@azure/data-tables';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { encodePartitionValue } from '../../src/reports/encodePartitionValue.js';
import { loadParquetWriter } from '../../src/reports/loadParquetWriter.js';
import { storeDayBlobName } from '../../src/reports/reportBlobName.js';
import { ReportFragmentStore } from '../../src/storage/ReportFragmentStore.js';
import { ReportStore } from '../../src/storage/ReportStore.js';
import { ReportStoreDayRepository } from '../../src/storage/ReportStoreDayRepository.js';
import { createStorageClients, ensureStorage } from '../../src/storage/StorageClients.js';
import { encodeKeyPart, tableKey } from '../../src/storage/tableKey.js';
import { azuriteContainer, azuriteTable } from '../support/azuriteClients.js';
import { azuriteConfig } from '../support/azuriteConfig.js';
import { DuckDb } from '../support/duckDb.js';

// What every implementation does is in test/services/ports/suites; this is what the storage layout adds.
let container: ContainerClient;
let table: TableClient;

beforeAll(async () => {
  const name = `t${randomUUID().replace(/-/g, '').slice(0, 20)}`;
  container = await azuriteContainer(name);
  table = await azuriteTable(name);
});

const date = '2026-03-01';
const partner = () => `p/${randomUUID().slice(0, 8)}#?`;
const files = {
  sales_transactions: Uint8Array.from([1]),
  sales_lines: Uint8Array.from([2]),
  sales_payments: undefined,
  unmapped_transactions: undefined,
};

async function names(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const blob of container.listBlobsFlat({ prefix })) found.push(blob.name);
  return found.sort();
}

/**
 * What the store's storage does with one request: send it, refuse it, lose the connection part-way
 * through its body, or send it once a promise settles.
 */
type Fate = 'send' | 'refuse' | 'cut body' | Promise<'send'>;

/**
 * A body that sends its first `limit` bytes and then `cut()`s the request (the request's abort),
 * so the connection closes part-way through the body, as when the process goes down.
 */
function cutAfter(body: unknown, limit: number, cut: () => void): () => NodeJS.ReadableStream {
  if (typeof body !== 'function') throw new Error('expected a streamed body');
  const open = body as () => AsyncIterable<Uint8Array>;
  return () =>
    Readable.from(
      (async function* () {
        let sent = 0;
        for await (const chunk of open()) {
          const bytes = Buffer.from(chunk);
          if (sent + bytes.length >= limit) {
            yield bytes.subarray(0, limit - sent);
            cut();
            return;
          }
          sent += bytes.length;
          yield bytes;
        }
      })(),
    );
}

/** A store whose every request first meets `fate`. An error it raises is a plain one, which is not retried. */
async function storeWith(fate: (request: { method: string; url: URL; leaseAction: string | undefined }) => Fate, leaseRenewalMs?: number) {
  const storage = createStorageClients(azuriteConfig(), {
    policy: {
      name: 'fate',
      sendRequest: async (request, next) => {
        const chosen = await fate({
          method: request.method,
          url: new URL(request.url),
          leaseAction: request.headers.get('x-ms-lease-action'),
        });
        if (chosen === 'refuse') throw new Error('refused before it was sent');
        if (chosen === 'send') return next(request);
        const connection = new AbortController();
        request.abortSignal = connection.signal;
        request.body = cutAfter(request.body, 100, () => {
          connection.abort();
        });
        await next(request).catch(() => undefined);
        throw new Error('the connection was lost part-way through the body');
      },
    },
  });
  await ensureStorage(storage);
  return { store: new ReportStore(storage.reports, undefined, leaseRenewalMs), container: storage.reports };
}

/**
 * `value`, once the test says (`finish`), so that what happens meanwhile (a build, an upload) does
 * not depend on the machine's speed; after 10 s at the latest, so that a test whose condition
 * never comes fails on its assertions instead of hanging.
 */
function settledWhenTold<T>(value: T): { settled: Promise<T>; finish: () => void } {
  let finish = (): void => undefined;
  const settled = new Promise<T>((resolve) => {
    const latest = setTimeout(() => {
      resolve(value);
    }, 10_000);
    finish = () => {
      clearTimeout(latest);
      resolve(value);
    };
  });
  return { settled, finish };
}

/** The test's files, built when the test says. */
function builtWhen(): { files: Promise<typeof files>; finish: () => void } {
  const { settled, finish } = settledWhenTold(files);
  return { files: settled, finish };
}

describe('report fragments in the reports container', () => {
  it('lie under _state/, named by the lower-case batch id, never as a .parquet file a reader would match', async () => {
    const partnerId = partner();
    await new ReportFragmentStore(container).put(partnerId, 'AB-1', Uint8Array.from([1, 2]));
    expect(await names(`_state/fragments/partner_id=${encodePartitionValue(partnerId)}/`)).toEqual([
      `_state/fragments/partner_id=${encodePartitionValue(partnerId)}/ab-1.fragment`,
    ]);
  });
});

describe('report files with their marker and stamps', () => {
  it("stamps each file with its build and content hash; the store-day's marker lies under _state/", async () => {
    const partnerId = partner();
    await new ReportStore(container).writeStoreDay(partnerId, 'S1', date, files, '2026-03-02T01:00:00.000Z');
    const properties = await container.getBlockBlobClient(storeDayBlobName('sales_lines', partnerId, date, 'S1')).getProperties();
    expect(properties.contentType).toBe('application/vnd.apache.parquet');
    expect(properties.metadata?.generatedat).toBe('2026-03-02T01:00:00.000Z');
    expect(properties.metadata?.contentsha256).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(await names(`_state/store_day/partner_id=${encodePartitionValue(partnerId)}/`)).toEqual([
      `_state/store_day/partner_id=${encodePartitionValue(partnerId)}/business_date=${date}/store_id=S1`,
    ]);
  });

  it("waits while another writer holds the store-day's lease, then writes", async () => {
    const partnerId = partner();
    const store = new ReportStore(container);
    await store.writeStoreDay(partnerId, 'S1', date, files, '2026-03-02T01:00:00.000Z');
    const marker = container.getBlockBlobClient(
      `_state/store_day/partner_id=${encodePartitionValue(partnerId)}/business_date=${date}/store_id=S1`,
    );
    const other = marker.getBlobLeaseClient();
    await other.acquireLease(60);
    const waits: number[] = [];
    const waiting = new ReportStore(container, async (ms) => {
      waits.push(ms);
      if (waits.length === 2) await other.releaseLease();
    });
    expect(await waiting.writeStoreDay(partnerId, 'S1', date, files, '2026-03-02T02:00:00.000Z')).toBe('written');
    expect(waits).toEqual([50, 100]);
    const properties = await container.getBlockBlobClient(storeDayBlobName('sales_lines', partnerId, date, 'S1')).getProperties();
    expect(properties.metadata?.generatedat).toBe('2026-03-02T02:00:00.000Z');
  });

  it("lets the store-day's lease go when the build fails or what follows the write fails", async () => {
    const partnerId = partner();
    const failedBuild = Promise.reject(new Error('the build failed'));
    await expect(new ReportStore(container).writeStoreDay(partnerId, 'S1', date, failedBuild, '2026-03-02T01:00:00.000Z')).rejects.toThrow(
      'the build failed',
    );
    const failing = () => Promise.reject(new Error('what follows failed'));
    const never = new ReportStore(container, () => Promise.reject(new Error("waited for the store-day's lease")));
    await expect(never.writeStoreDay(partnerId, 'S1', date, files, '2026-03-02T02:00:00.000Z', failing)).rejects.toThrow(
      'what follows failed',
    );
    // Neither left the lease held: a writer that may not wait writes at once.
    expect(await never.writeStoreDay(partnerId, 'S1', date, files, '2026-03-02T03:00:00.000Z')).toBe('written');
  });

  it("keeps the store-day's lease renewed while the files are built, and stops once they are written", async () => {
    // The renewal timer runs on time the test moves; the requests are real.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      let renewals = 0;
      const build = builtWhen();
      const { store } = await storeWith(({ leaseAction }) => {
        if (leaseAction === 'renew') renewals += 1;
        return 'send';
      }, 50);
      const writing = store.writeStoreDay(partner(), 'S1', date, build.files, '2026-03-02T01:00:00.000Z');
      // Between attempts, expect.poll moves fake timers on by its interval: here a renewal period.
      // The build ends once the lease has been renewed three times while it ran.
      await expect.poll(() => renewals, { interval: 50 }).toBeGreaterThanOrEqual(3);
      build.finish();
      expect(await writing).toBe('written');
      // Renewed only before each write, the lease would be renewed at most twice.
      expect(renewals).toBeGreaterThanOrEqual(3);
      // No renewal timer is left set: however long the test waited now, nothing would renew the lease.
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps the store-day's lease renewed while the files are uploaded", async () => {
    let renewals = 0;
    // Every file upload is held until the lease has been renewed three times meanwhile.
    const renewed = settledWhenTold<'send'>('send');
    let uploading = false;
    const { store } = await storeWith(({ method, url, leaseAction }) => {
      if (leaseAction === 'renew' && uploading && ++renewals === 3) renewed.finish();
      if (method === 'PUT' && url.pathname.endsWith('.parquet')) {
        uploading = true;
        return renewed.settled;
      }
      return 'send';
    }, 50);
    expect(await store.writeStoreDay(partner(), 'S1', date, files, '2026-03-02T01:00:00.000Z')).toBe('written');
    expect(renewals).toBeGreaterThanOrEqual(3);
  });

  it('fails the write when a renewal during the build failed, even if a later one went through', async () => {
    let renewals = 0;
    const build = builtWhen();
    const { store, container: reports } = await storeWith(({ leaseAction }) => {
      if (leaseAction !== 'renew') return 'send';
      renewals += 1;
      // The build ends once a renewal after the refused one is on its way.
      if (renewals === 2) build.finish();
      return renewals === 1 ? 'refuse' : 'send';
    }, 100);
    const partnerId = partner();
    await expect(store.writeStoreDay(partnerId, 'S1', date, build.files, '2026-03-02T01:00:00.000Z')).rejects.toThrow(
      'refused before it was sent',
    );
    const file = reports.getBlockBlobClient(storeDayBlobName('sales_lines', partnerId, date, 'S1'));
    expect(await file.exists()).toBe(false);
  });
});

describe('store-day rows in their table', () => {
  it('a row stored before totals were kept lists with no totals, for a rebuild to add them', async () => {
    const partnerId = partner();
    const row = { store_id: 'ignored', currency: 'USD', status: 'MATCHED', report_generated_at: '2026-03-02T01:00:00.000Z' };
    await table.createEntity({
      partitionKey: tableKey(partnerId, date),
      rowKey: encodeKeyPart('S/1'),
      row: JSON.stringify(row),
      generatedAt: row.report_generated_at,
    });
    const listed = [];
    for await (const entry of new ReportStoreDayRepository(table).listRange(partnerId)) listed.push(entry);
    expect(listed).toEqual([{ businessDate: date, row: { ...row, store_id: 'S/1', sales: { sales: [], unmapped: [] } } }]);
  });
});

describe('report files given in pieces', () => {
  /** A small real Parquet file (three rows), cut into pieces of uneven sizes. */
  async function parquetInPieces(): Promise<{ whole: Uint8Array; pieces: Uint8Array[] }> {
    const { parquetWriteBuffer } = await loadParquetWriter();
    const whole = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'id', data: ['a', 'b', 'c'], type: 'STRING' },
          { name: 'n', data: [1, 2, 3], type: 'INT32' },
        ],
      }),
    );
    const cuts = [0, 1, 5, 6, 90, whole.length];
    return { whole, pieces: cuts.slice(1).map((end, i) => whole.subarray(cuts[i], end)) };
  }

  it('are sent in one request and read back as the pieces joined, which DuckDB reads', async () => {
    const partnerId = partner();
    const { whole, pieces } = await parquetInPieces();
    const fileName = storeDayBlobName('sales_lines', partnerId, date, 'S1');
    const writes: string[] = [];
    const { store, container: reports } = await storeWith(({ method, url }) => {
      if (method === 'PUT' && decodeURIComponent(url.pathname).endsWith(fileName)) writes.push(url.searchParams.get('comp') ?? 'blob');
      return 'send';
    });
    await store.writeStoreDay(partnerId, 'S1', date, { ...files, sales_lines: pieces }, '2026-03-02T01:00:00.000Z');
    expect(writes).toEqual(['blob']);
    const blob = reports.getBlockBlobClient(fileName);
    const read = await blob.downloadToBuffer();
    expect(Buffer.compare(read, whole)).toBe(0);
    const properties = await blob.getProperties();
    expect(properties.contentType).toBe('application/vnd.apache.parquet');
    expect(properties.metadata?.contentsha256).toBe(createHash('sha256').update(whole).digest('base64'));

    const dir = mkdtempSync(path.join(tmpdir(), 'pieces-'));
    const db = await DuckDb.open();
    try {
      writeFileSync(path.join(dir, 'f.parquet'), read);
      expect(await db.rows(`SELECT id, n FROM read_parquet('${path.join(dir, 'f.parquet')}') ORDER BY n`)).toEqual([
        { id: 'a', n: 1 },
        { id: 'b', n: 2 },
        { id: 'c', n: 3 },
      ]);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  for (const cutAt of ['before it is sent', 'part-way through its body'] as const) {
    it(`a write cut off ${cutAt} leaves the old file whole and visible; its retry writes the new one whole`, async () => {
      let armed = false;
      const { store, container: reports } = await storeWith(({ method, url }) => {
        // The file's Put Blob (the marker and the lease are requests with a comp or an empty body).
        const fileUpload = method === 'PUT' && !url.searchParams.has('comp') && url.pathname.endsWith('.parquet');
        if (!armed || !fileUpload) return 'send';
        return cutAt === 'before it is sent' ? 'refuse' : 'cut body';
      });
      const partnerId = partner();
      const blob = reports.getBlockBlobClient(storeDayBlobName('sales_lines', partnerId, date, 'S1'));
      const old = Buffer.from('the old file, in one piece');
      await store.writeStoreDay(partnerId, 'S1', date, { ...files, sales_lines: old }, '2026-03-02T01:00:00.000Z');

      const { whole, pieces } = await parquetInPieces();
      armed = true;
      await expect(
        store.writeStoreDay(partnerId, 'S1', date, { ...files, sales_lines: pieces }, '2026-03-02T02:00:00.000Z'),
      ).rejects.toThrow();
      expect(Buffer.compare(await blob.downloadToBuffer(), old)).toBe(0);
      expect((await blob.getProperties()).metadata?.generatedat).toBe('2026-03-02T01:00:00.000Z');

      armed = false;
      expect(await store.writeStoreDay(partnerId, 'S1', date, { ...files, sales_lines: pieces }, '2026-03-02T02:00:00.000Z')).toBe(
        'written',
      );
      expect(Buffer.compare(await blob.downloadToBuffer(), whole)).toBe(0);
      expect((await blob.getProperties()).metadata?.generatedat).toBe('2026-03-02T02:00:00.000Z');
    });
  }
});
