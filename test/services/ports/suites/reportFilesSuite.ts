import { expect, it } from 'vitest';
import { storeDayBlobName, storeDaysBlobName } from '../../../../src/reports/reportBlobName.js';
import type { StoreDayDataset } from '../../../../src/reports/reportDatasets.js';
import type { ReportFiles } from '../../../../src/services/ports/ReportFiles.js';
import { freshPartnerId } from './freshIds.js';
import { deferred } from '../../../support/deferred.js';

/** An implementation, and how a test reads a file back by its name in the reports container. */
export interface ReportFilesUnderTest {
  readonly files: ReportFiles;
  readonly read: (name: string) => Promise<Buffer | undefined>;
}

const date = '2026-03-01';
const bytes = (text: string) => new TextEncoder().encode(text);
const all = (text: string): Record<StoreDayDataset, Uint8Array | undefined> => ({
  sales_transactions: bytes(`${text}:transactions`),
  sales_lines: bytes(`${text}:lines`),
  sales_payments: bytes(`${text}:payments`),
  unmapped_transactions: bytes(`${text}:unmapped`),
});

/** What every ReportFiles implementation does. */
export function reportFilesSuite(make: () => Promise<ReportFilesUnderTest>): void {
  const text = async (read: ReportFilesUnderTest['read'], name: string) => (await read(name))?.toString('utf8');

  it("writes each dataset's file under the store-day's name; a dataset without a file has its old one removed", async () => {
    const { files, read } = await make();
    const partnerId = freshPartnerId();
    const storeId = 'SEA/1#?';
    const name = (dataset: StoreDayDataset) => storeDayBlobName(dataset, partnerId, date, storeId);
    expect(await files.writeStoreDay(partnerId, storeId, date, all('first'), '2026-03-02T01:00:00.000Z')).toBe('written');
    expect(await text(read, name('sales_lines'))).toBe('first:lines');
    expect(await text(read, name('unmapped_transactions'))).toBe('first:unmapped');

    const second = { ...all('second'), unmapped_transactions: undefined };
    expect(await files.writeStoreDay(partnerId, storeId, date, second, '2026-03-02T02:00:00.000Z')).toBe('written');
    expect(await text(read, name('sales_transactions'))).toBe('second:transactions');
    expect(await read(name('unmapped_transactions'))).toBeUndefined();
  });

  it('a build that started before the last write is superseded and writes nothing; a build stamped the same writes', async () => {
    const { files, read } = await make();
    const partnerId = freshPartnerId();
    const name = storeDayBlobName('sales_payments', partnerId, date, 'S1');
    await files.writeStoreDay(partnerId, 'S1', date, all('newest'), '2026-03-02T02:00:00.000Z');
    const older = { ...all('older'), sales_payments: undefined };
    expect(await files.writeStoreDay(partnerId, 'S1', date, older, '2026-03-02T01:59:59.999Z')).toBe('superseded');
    expect(await text(read, name)).toBe('newest:payments');
    expect(await files.writeStoreDay(partnerId, 'S1', date, all('again'), '2026-03-02T02:00:00.000Z')).toBe('written');
    expect(await text(read, name)).toBe('again:payments');
  });

  it('writes files still being built once they are; runs onWritten after them, and fails when the build or onWritten does', async () => {
    const { files, read } = await make();
    const partnerId = freshPartnerId();
    const name = storeDayBlobName('sales_lines', partnerId, date, 'S1');
    const built = new Promise<Record<StoreDayDataset, Uint8Array | undefined>>((resolve) => {
      setTimeout(() => {
        resolve(all('built'));
      }, 20);
    });
    let seen: string | undefined;
    const onWritten = async () => {
      seen = await text(read, name);
    };
    expect(await files.writeStoreDay(partnerId, 'S1', date, built, '2026-03-02T01:00:00.000Z', onWritten)).toBe('written');
    expect(seen).toBe('built:lines');

    const failedBuild = Promise.reject(new Error('the build failed'));
    await expect(files.writeStoreDay(partnerId, 'S1', date, failedBuild, '2026-03-02T02:00:00.000Z')).rejects.toThrow('the build failed');
    expect(await text(read, name)).toBe('built:lines');

    const failing = () => Promise.reject(new Error('what follows failed'));
    await expect(files.writeStoreDay(partnerId, 'S1', date, all('next'), '2026-03-02T03:00:00.000Z', failing)).rejects.toThrow(
      'what follows failed',
    );
    expect(await text(read, name)).toBe('next:lines');
  });

  it('a superseded build does not run onWritten', async () => {
    const { files } = await make();
    const partnerId = freshPartnerId();
    await files.writeStoreDay(partnerId, 'S1', date, all('newest'), '2026-03-02T02:00:00.000Z');
    let ran = false;
    const onWritten = () => {
      ran = true;
      return Promise.resolve();
    };
    expect(await files.writeStoreDay(partnerId, 'S1', date, all('older'), '2026-03-02T01:00:00.000Z', onWritten)).toBe('superseded');
    expect(ran).toBe(false);
  });

  it("keeps each store-day's order apart: another store or partner writes whatever was stamped elsewhere", async () => {
    const { files, read } = await make();
    const a = freshPartnerId();
    const b = freshPartnerId();
    await files.writeStoreDay(a, 'S1', date, all('a'), '2026-03-02T02:00:00.000Z');
    expect(await files.writeStoreDay(a, 'S2', date, all('a2'), '2026-03-02T01:00:00.000Z')).toBe('written');
    expect(await files.writeStoreDay(b, 'S1', date, all('b'), '2026-03-02T01:00:00.000Z')).toBe('written');
    expect(await text(read, storeDayBlobName('sales_lines', a, date, 'S1'))).toBe('a:lines');
    expect(await text(read, storeDayBlobName('sales_lines', b, date, 'S1'))).toBe('b:lines');
  });

  it('writes the store_days file from its build, and leaves it as it is when the build has nothing', async () => {
    const { files, read } = await make();
    const partnerId = freshPartnerId();
    await files.writeStoreDays(partnerId, date, () => Promise.resolve(bytes('rows v1')));
    expect(await text(read, storeDaysBlobName(partnerId, date))).toBe('rows v1');
    await files.writeStoreDays(partnerId, date, () => Promise.resolve(undefined));
    expect(await text(read, storeDaysBlobName(partnerId, date))).toBe('rows v1');
    await files.writeStoreDays(partnerId, date, () => Promise.resolve(bytes('rows v2')));
    expect(await text(read, storeDaysBlobName(partnerId, date))).toBe('rows v2');
  });

  it('a store_days build overtaken by another write is built again, so the last file written saw every earlier write', async () => {
    const { files, read } = await make();
    const partnerId = freshPartnerId();
    let rows = 'one store';
    const { promise: gate, resolve: release } = deferred();
    const { promise: building, resolve: entered } = deferred();
    let slowBuilds = 0;
    const slow = files.writeStoreDays(partnerId, date, async () => {
      slowBuilds += 1;
      const seen = rows;
      if (slowBuilds === 1) {
        entered();
        await gate;
      }
      return bytes(`slow saw ${seen}`);
    });
    // The slow writer has looked at the file and is building; another writer finishes first.
    await building;
    rows = 'two stores';
    await files.writeStoreDays(partnerId, date, () => Promise.resolve(bytes(`fast saw ${rows}`)));
    expect(await text(read, storeDaysBlobName(partnerId, date))).toBe('fast saw two stores');
    release();
    await slow;
    expect(slowBuilds).toBe(2);
    expect(await text(read, storeDaysBlobName(partnerId, date))).toBe('slow saw two stores');
  });
}
