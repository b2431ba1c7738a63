import { randomUUID } from 'node:crypto';
import type { PipelinePolicy, PipelineRequest, PipelineResponse, SendRequest } from '@azure/core-rest-pipeline';
import { TableClient } from '@azure/data-tables';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { TableRateLimiter } from '../../src/storage/TableRateLimiter.js';

const connectionString = inject('azuriteConnectionString');
const tableName = `rateLimiter${randomUUID().replace(/-/g, '').slice(0, 12)}`;
const table = TableClient.fromConnectionString(connectionString, tableName, { allowInsecureConnection: true });

beforeAll(async () => {
  await table.createTable();
});

/** The same table, counting the requests each instance sends. */
function counted(): { client: TableClient; requests: () => number } {
  let requests = 0;
  const client = Object.create(table) as TableClient;
  client.getEntity = (...args: Parameters<TableClient['getEntity']>) => {
    requests += 1;
    return table.getEntity(...args);
  };
  client.createEntity = (...args: Parameters<TableClient['createEntity']>) => {
    requests += 1;
    return table.createEntity(...args);
  };
  client.updateEntity = (...args: Parameters<TableClient['updateEntity']>) => {
    requests += 1;
    return table.updateEntity(...args);
  };
  return { client, requests: () => requests };
}

const minute = new Date('2026-03-01T10:00:30Z');

/**
 * Counts the transactions and the single-row deletes a client sends. `beforeTransaction` runs once,
 * before the first transaction whose request names the given row key is sent on: what another
 * writer does between a prune's listing and its transaction.
 */
class DeleteTally implements PipelinePolicy {
  readonly name = 'delete-tally';
  transactions = 0;
  deletes = 0;
  beforeTransaction: { readonly rowKey: string; readonly run: () => Promise<void> } | undefined;

  async sendRequest(request: PipelineRequest, next: SendRequest): Promise<PipelineResponse> {
    if (request.url.includes('$batch')) {
      this.transactions += 1;
      const hook = this.beforeTransaction;
      if (hook && typeof request.body === 'string' && request.body.includes(`RowKey='${hook.rowKey}'`)) {
        this.beforeTransaction = undefined;
        await hook.run();
      }
    } else if (request.method === 'DELETE') {
      this.deletes += 1;
    }
    return next(request);
  }
}

describe('TableRateLimiter', () => {
  it('allows exactly the limit in a window, one request per call once it knows the row, none once at the limit', async () => {
    const { client, requests } = counted();
    const limiter = new TableRateLimiter(client);
    const partner = `p-${randomUUID()}`;
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await limiter.take(partner, 3, minute));
    expect(decisions.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
    expect(decisions[3]).toEqual({ allowed: false, retryAfterSeconds: 30 });
    // create, two ETag-guarded updates; the refusals are decided from the remembered count.
    expect(requests()).toBe(3);
    // A new window starts from a new row.
    expect((await limiter.take(partner, 3, new Date('2026-03-01T10:01:00Z'))).allowed).toBe(true);
  });

  it('shares the count between instances: a stale ETag falls back to reading the row', async () => {
    const partner = `p-${randomUUID()}`;
    const a = new TableRateLimiter(table);
    const b = new TableRateLimiter(table);
    const allowed = [];
    for (let i = 0; i < 6; i++) allowed.push((await (i % 2 === 0 ? a : b).take(partner, 4, minute)).allowed);
    expect(allowed).toEqual([true, true, true, true, false, false]);
    const row = await table.getEntity<{ count: number }>(partner, String(Date.parse('2026-03-01T10:00:00Z')));
    expect(row.count).toBe(4);
  });

  it('counts concurrent calls of several instances exactly', async () => {
    const partner = `p-${randomUUID()}`;
    const instances = [new TableRateLimiter(table), new TableRateLimiter(table), new TableRateLimiter(table)];
    const decisions = await Promise.all(Array.from({ length: 12 }, (_, i) => instances[i % 3]!.take(partner, 7, minute)));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(7);
  });
});

describe('TableRateLimiter.prune', () => {
  const pruneTable = TableClient.fromConnectionString(connectionString, `${tableName}prune`, { allowInsecureConnection: true });
  const at = (iso: string): Date => new Date(iso);
  const rowKeys = async (partner: string): Promise<string[]> => {
    const keys: string[] = [];
    for await (const row of pruneTable.listEntities({ queryOptions: { filter: `PartitionKey eq '${partner}'` } })) keys.push(row.rowKey!);
    return keys;
  };

  it("removes every partner's windows older than the five before the current one, and nothing newer", async () => {
    await pruneTable.createTable();
    const [a, b] = [`p-${randomUUID()}`, `p-${randomUUID()}`];
    const limiter = new TableRateLimiter(pruneTable);
    for (const time of ['2026-03-01T09:50:10Z', '2026-03-01T09:54:59Z', '2026-03-01T09:55:00Z', '2026-03-01T10:00:20Z'])
      await limiter.take(a, 3, at(time));
    await new TableRateLimiter(pruneTable).take(b, 3, at('2026-02-28T23:59:59Z'));

    expect(await limiter.prune(at('2026-03-01T10:00:40Z'))).toEqual({ removed: 3, stoppedAtBudget: false });

    expect(await rowKeys(a)).toEqual([String(Date.parse('2026-03-01T09:55:00Z')), String(Date.parse('2026-03-01T10:00:00Z'))]);
    expect(await rowKeys(b)).toEqual([]);
    // The current window keeps its count: two more calls, then the limit.
    const decisions = [];
    for (let i = 0; i < 3; i++) decisions.push((await new TableRateLimiter(pruneTable).take(a, 3, at('2026-03-01T10:00:50Z'))).allowed);
    expect(decisions).toEqual([true, true, false]);
    expect(await limiter.prune(at('2026-03-01T10:00:55Z'))).toEqual({ removed: 0, stoppedAtBudget: false });
  });

  it('starts no page after its time budget: a backlog is cleared over several runs', async () => {
    const backlog = TableClient.fromConnectionString(connectionString, `${tableName}backlog`, { allowInsecureConnection: true });
    await backlog.createTable();
    const partner = `p-${randomUUID()}`;
    // More rows than one page holds (1,000), as a table grown before pruning existed.
    const rows = Array.from({ length: 1_100 }, (_, i) => ({
      partitionKey: partner,
      rowKey: String(Date.parse('2026-01-01T00:00:00Z') + i * 60_000),
      count: 1,
    }));
    for (let i = 0; i < rows.length; i += 100) await backlog.submitTransaction(rows.slice(i, i + 100).map((row) => ['create', row]));
    const limiter = new TableRateLimiter(backlog);

    const first = await limiter.prune(at('2026-03-01T10:00:00Z'), 0);
    expect(first.stoppedAtBudget).toBe(true);
    expect(first.removed).toBeGreaterThan(0);
    expect(first.removed).toBeLessThan(rows.length);
    const rest = await limiter.prune(at('2026-03-01T10:00:00Z'));
    expect(rest).toEqual({ removed: rows.length - first.removed, stoppedAtBudget: false });
  });

  describe('in transactions', () => {
    const now = at('2026-03-01T10:00:30Z');
    /** Windows `now` keeps: the oldest kept, one between and the current one. */
    const keptWindows = ['2026-03-01T09:55:00Z', '2026-03-01T09:58:00Z', '2026-03-01T10:00:00Z'].map((iso) => String(Date.parse(iso)));
    const oldWindows = (count: number): string[] =>
      Array.from({ length: count }, (_, i) => String(Date.parse('2026-01-01T00:00:00Z') + i * 60_000));

    /** A table of its own, holding these rows, and a limiter on it that counts what it sends. */
    const seeded = async (rows: Record<string, readonly string[]>) => {
      const name = `${tableName}tx${randomUUID().replace(/-/g, '').slice(0, 8)}`;
      const seed = TableClient.fromConnectionString(connectionString, name, { allowInsecureConnection: true });
      await seed.createTable();
      for (const [partitionKey, rowKeys] of Object.entries(rows)) {
        for (let i = 0; i < rowKeys.length; i += 100) {
          await seed.submitTransaction(rowKeys.slice(i, i + 100).map((rowKey) => ['create', { partitionKey, rowKey, count: 1 }]));
        }
      }
      const own = TableClient.fromConnectionString(connectionString, name, { allowInsecureConnection: true });
      const tally = new DeleteTally();
      own.pipeline.addPolicy(tally);
      const left = async (): Promise<Record<string, string[]>> => {
        const found: Record<string, string[]> = {};
        for await (const row of seed.listEntities()) (found[row.partitionKey!] ??= []).push(row.rowKey!);
        return found;
      };
      return { seed, limiter: new TableRateLimiter(own), tally, left };
    };

    it("removes more old rows of one partition than one transaction holds, and keeps the kept windows' rows", async () => {
      const partner = `p-${randomUUID()}`;
      const { limiter, tally, left } = await seeded({ [partner]: [...oldWindows(250), ...keptWindows] });

      expect(await limiter.prune(now)).toEqual({ removed: 250, stoppedAtBudget: false });

      expect(await left()).toEqual({ [partner]: keptWindows });
      // 100 + 100 + 50 rows, none deleted alone.
      expect({ transactions: tally.transactions, deletes: tally.deletes }).toEqual({ transactions: 3, deletes: 0 });
    });

    it('removes the old rows of every partition a page holds, each partition in transactions of its own', async () => {
      const partners = [`a-${randomUUID()}`, `b-${randomUUID()}`, `c-${randomUUID()}`];
      const { limiter, tally, left } = await seeded({
        [partners[0]!]: [...oldWindows(30), ...keptWindows.slice(0, 1)],
        [partners[1]!]: [...oldWindows(120), ...keptWindows.slice(2)],
        [partners[2]!]: oldWindows(5),
      });

      expect(await limiter.prune(now)).toEqual({ removed: 155, stoppedAtBudget: false });

      expect(await left()).toEqual({ [partners[0]!]: keptWindows.slice(0, 1), [partners[1]!]: keptWindows.slice(2) });
      expect({ transactions: tally.transactions, deletes: tally.deletes }).toEqual({ transactions: 4, deletes: 0 });
    });

    it('deletes the rows of a transaction one by one when another prune took one of them first, counting only its own', async () => {
      const partner = `p-${randomUUID()}`;
      const old = oldWindows(150);
      const { seed, limiter, tally, left } = await seeded({ [partner]: [...old, ...keptWindows] });
      // Another prune removes a row of the first hundred after this one listed it.
      const taken = old[40]!;
      tally.beforeTransaction = { rowKey: taken, run: () => seed.deleteEntity(partner, taken).then(() => undefined) };

      expect(await limiter.prune(now)).toEqual({ removed: 149, stoppedAtBudget: false });

      expect(tally.beforeTransaction).toBeUndefined();
      expect(await left()).toEqual({ [partner]: keptWindows });
      // The refused transaction's 100 rows went one by one (the taken one answering 404); the other 50 together.
      expect({ transactions: tally.transactions, deletes: tally.deletes }).toEqual({ transactions: 2, deletes: 100 });
    });
  });
});
