import { randomUUID } from 'node:crypto';
import { TableClient, type GetTableEntityOptions } from '@azure/data-tables';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { readRowAhead, writeIfCurrent } from '../../src/storage/writeIfCurrent.js';
import { WriteContentionError } from '../../src/storage/WriteContentionError.js';

interface CounterRow {
  count: number;
}

const connectionString = inject('azuriteConnectionString');
const tableName = `writeIfCurrent${randomUUID().replace(/-/g, '').slice(0, 12)}`;
const table = TableClient.fromConnectionString(connectionString, tableName, { allowInsecureConnection: true });

beforeAll(async () => {
  await table.createTable();
});

/** A fresh row key, so every test starts from an absent row. */
const newRow = (): string => randomUUID();

async function readCount(rowKey: string): Promise<number> {
  return (await table.getEntity<CounterRow>('p', rowKey)).count;
}

/**
 * The same table, with another writer acting on the row right after each read of `writeIfCurrent`:
 * the race the ETag guard exists for, made to happen every time.
 */
function withRivalAfterRead(rival: (rowKey: string) => Promise<void>): TableClient {
  const rivalled = Object.create(table) as TableClient;
  rivalled.getEntity = async <T extends object>(partitionKey: string, rowKey: string, options?: GetTableEntityOptions) => {
    const row = await table.getEntity<T>(partitionKey, rowKey, options);
    await rival(rowKey);
    return row;
  };
  return rivalled;
}

describe('writeIfCurrent', () => {
  it('creates an absent row, then replaces it from what it read', async () => {
    const rowKey = newRow();
    const seen: (number | undefined)[] = [];
    const increment = (current: CounterRow | undefined): CounterRow => {
      seen.push(current?.count);
      return { count: (current?.count ?? 0) + 1 };
    };
    expect(await writeIfCurrent(table, 'p', rowKey, increment)).toBe(true);
    expect(await writeIfCurrent(table, 'p', rowKey, increment)).toBe(true);
    expect(seen).toEqual([undefined, 1]);
    expect(await readCount(rowKey)).toBe(2);
  });

  it('writes nothing when decide leaves the row as it is', async () => {
    const rowKey = newRow();
    await table.createEntity({ partitionKey: 'p', rowKey, count: 7 });
    expect(await writeIfCurrent<CounterRow>(table, 'p', rowKey, () => undefined)).toBe(false);
    expect(await readCount(rowKey)).toBe(7);
  });

  it('decides again from the new row when another writer changed it after the read', async () => {
    const rowKey = newRow();
    await table.createEntity({ partitionKey: 'p', rowKey, count: 1 });
    let rivalWrites = 0;
    const rivalled = withRivalAfterRead(async (key) => {
      if (rivalWrites > 0) return;
      rivalWrites += 1;
      await table.updateEntity({ partitionKey: 'p', rowKey: key, count: 10 }, 'Replace');
    });
    const seen: number[] = [];
    const wrote = await writeIfCurrent<CounterRow>(rivalled, 'p', rowKey, (current) => {
      seen.push(current?.count ?? 0);
      return { count: (current?.count ?? 0) + 1 };
    });
    expect(wrote).toBe(true);
    // The first decision (from 1) lost to the rival; the second one built on the rival's 10.
    expect(seen).toEqual([1, 10]);
    expect(await readCount(rowKey)).toBe(11);
  });

  it('creates the row anew when it was deleted between the read and the write', async () => {
    const rowKey = newRow();
    await table.createEntity({ partitionKey: 'p', rowKey, count: 5 });
    let deleted = false;
    const rivalled = withRivalAfterRead(async (key) => {
      if (deleted) return;
      deleted = true;
      await table.deleteEntity('p', key);
    });
    const seen: (number | undefined)[] = [];
    const wrote = await writeIfCurrent<CounterRow>(rivalled, 'p', rowKey, (current) => {
      seen.push(current?.count);
      return { count: (current?.count ?? 0) + 1 };
    });
    expect(wrote).toBe(true);
    expect(seen).toEqual([5, undefined]);
    expect(await readCount(rowKey)).toBe(1);
  });

  it('gives up with WriteContentionError when the row changes under every attempt', async () => {
    const rowKey = newRow();
    await table.createEntity({ partitionKey: 'p', rowKey, count: 0 });
    let rivalWrites = 0;
    const rivalled = withRivalAfterRead(async (key) => {
      rivalWrites += 1;
      await table.updateEntity({ partitionKey: 'p', rowKey: key, count: -rivalWrites }, 'Replace');
    });
    let decisions = 0;
    const attempt = writeIfCurrent<CounterRow>(rivalled, 'p', rowKey, () => {
      decisions += 1;
      return { count: 1_000 };
    });
    const error = await attempt.then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(WriteContentionError);
    const contention = error as WriteContentionError;
    expect(contention.table).toBe(tableName);
    expect(decisions).toBe(contention.attempts);
    expect(decisions).toBeGreaterThan(1);
    // None of the attempts overwrote the rival.
    expect(await readCount(rowKey)).toBe(-rivalWrites);
  });

  it('throws at once when the table itself is missing, instead of retrying the create', async () => {
    const missing = TableClient.fromConnectionString(connectionString, `missing${randomUUID().replace(/-/g, '').slice(0, 12)}`, {
      allowInsecureConnection: true,
    });
    let decisions = 0;
    const attempt = writeIfCurrent<CounterRow>(missing, 'p', newRow(), () => {
      decisions += 1;
      return { count: 1 };
    });
    await expect(attempt).rejects.toMatchObject({ statusCode: 404 });
    expect(decisions).toBe(1);
  });

  describe('with a read ahead', () => {
    /** The same table, counting its point reads. */
    function counting(): { table: TableClient; reads: () => number } {
      let reads = 0;
      const counted = Object.create(table) as TableClient;
      counted.getEntity = <T extends object>(partitionKey: string, rowKey: string, options?: GetTableEntityOptions) => {
        reads += 1;
        return table.getEntity<T>(partitionKey, rowKey, options);
      };
      return { table: counted, reads: () => reads };
    }

    it('decides on the row read ahead, with no read of its own', async () => {
      const rowKey = newRow();
      await table.createEntity({ partitionKey: 'p', rowKey, count: 1 });
      const ahead = readRowAhead(table, 'p', rowKey);
      const { table: counted, reads } = counting();
      expect(await writeIfCurrent<CounterRow>(counted, 'p', rowKey, (c) => ({ count: (c?.count ?? 0) + 1 }), undefined, ahead)).toBe(true);
      expect(reads()).toBe(0);
      expect(await readCount(rowKey)).toBe(2);
    });

    it('reads again when the row changed after the read ahead, or was created after it found none', async () => {
      const changed = newRow();
      await table.createEntity({ partitionKey: 'p', rowKey: changed, count: 1 });
      const stale = readRowAhead(table, 'p', changed);
      await stale.row;
      await table.updateEntity({ partitionKey: 'p', rowKey: changed, count: 5 }, 'Replace');
      await writeIfCurrent<CounterRow>(table, 'p', changed, (c) => ({ count: (c?.count ?? 0) + 1 }), undefined, stale);
      expect(await readCount(changed)).toBe(6);

      const created = newRow();
      const none = readRowAhead(table, 'p', created);
      await none.row;
      await table.createEntity({ partitionKey: 'p', rowKey: created, count: 7 });
      await writeIfCurrent<CounterRow>(table, 'p', created, (c) => ({ count: (c?.count ?? 0) + 1 }), undefined, none);
      expect(await readCount(created)).toBe(8);
    });

    it('reads for itself when the read ahead failed', async () => {
      const rowKey = newRow();
      await table.createEntity({ partitionKey: 'p', rowKey, count: 3 });
      const failed = { row: Promise.reject(new Error('no answer')) };
      failed.row.catch(() => undefined);
      const { table: counted, reads } = counting();
      await writeIfCurrent<CounterRow>(counted, 'p', rowKey, (c) => ({ count: (c?.count ?? 0) + 1 }), undefined, failed);
      expect(reads()).toBe(1);
      expect(await readCount(rowKey)).toBe(4);
    });
  });
});
