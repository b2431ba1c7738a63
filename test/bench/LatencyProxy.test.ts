import { TableClient, TableServiceClient } from '@azure/data-tables';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LatencyProxy } from '../../bench/LatencyProxy.js';
import { startAzurite, type RunningAzurite } from '../../src/localhost/startAzurite.js';
import { sendTableTransaction } from '../../src/storage/sendTableTransaction.js';

/** Lists the names of an emulator's tables, read straight from it (not through the proxy). */
async function tablesOf(emulator: RunningAzurite): Promise<string[]> {
  const names: string[] = [];
  const service = TableServiceClient.fromConnectionString(emulator.connectionString, { allowInsecureConnection: true });
  for await (const table of service.listTables()) if (table.name) names.push(table.name);
  return names.sort();
}

async function rowKeysOf(emulator: RunningAzurite, table: string): Promise<string[]> {
  const client = TableClient.fromConnectionString(emulator.connectionString, table, { allowInsecureConnection: true });
  const keys: string[] = [];
  for await (const entity of client.listEntities()) keys.push(entity.rowKey ?? '');
  return keys.sort();
}

describe('LatencyProxy with tables served apart', () => {
  let main: RunningAzurite;
  let apart: RunningAzurite;
  let proxy: LatencyProxy;
  let proxied: string;

  beforeAll(async () => {
    [main, apart] = await Promise.all([startAzurite({ inMemory: true }), startAzurite({ inMemory: true })]);
    proxy = new LatencyProxy(() => 0, { tables: new Set(['homes']), tablePort: apart.tablePort });
    const ports = await proxy.start({ blobPort: main.blobPort, queuePort: main.queuePort, tablePort: main.tablePort });
    proxied = main.connectionString.replace(/(TableEndpoint=http:\/\/[^:;]+:)\d+/i, `$1${ports.tablePort}`);
  }, 60_000);

  afterAll(async () => {
    await proxy.stop();
    await Promise.all([main.stop(), apart.stop()]);
  });

  it("sends every request naming a table served apart to that table's emulator, and the rest to the main one", async () => {
    const homes = TableClient.fromConnectionString(proxied, 'homes', { allowInsecureConnection: true });
    const ledger = TableClient.fromConnectionString(proxied, 'ledger', { allowInsecureConnection: true });
    await homes.createTable();
    await ledger.createTable();
    // Point writes, the SDK's transactions and the service's own ones; then reads and a query.
    await homes.createEntity({ partitionKey: 'p', rowKey: 'point' });
    await homes.submitTransaction([['create', { partitionKey: 'p', rowKey: 'sdk-1' }]]);
    await sendTableTransaction(homes, [['create', { partitionKey: 'p', rowKey: 'own-1' }]]);
    await sendTableTransaction(ledger, [['create', { partitionKey: 'p', rowKey: 'ledger-1' }]]);
    await ledger.upsertEntity({ partitionKey: 'p', rowKey: 'ledger-2' }, 'Replace');
    expect((await homes.getEntity('p', 'own-1')).rowKey).toBe('own-1');
    const listed: string[] = [];
    for await (const entity of homes.listEntities({ queryOptions: { filter: "PartitionKey eq 'p'" } })) listed.push(entity.rowKey ?? '');

    expect(listed.sort()).toEqual(['own-1', 'point', 'sdk-1']);
    expect(await tablesOf(apart)).toEqual(['homes']);
    expect(await tablesOf(main)).toEqual(['ledger']);
    expect(await rowKeysOf(apart, 'homes')).toEqual(['own-1', 'point', 'sdk-1']);
    expect(await rowKeysOf(main, 'ledger')).toEqual(['ledger-1', 'ledger-2']);
    // The table's creation, three writes, the read and the query.
    expect(proxy.requestsApart).toBe(6);

    await homes.deleteTable();
    expect(await tablesOf(apart)).toEqual([]);
    expect(await tablesOf(main)).toEqual(['ledger']);
  });
});
