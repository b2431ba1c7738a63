import { TableClient } from '@azure/data-tables';
import { BlobServiceClient, type ContainerClient } from '@azure/storage-blob';
import { QueueClient } from '@azure/storage-queue';
import { inject } from 'vitest';

/** A table of the test run's storage emulator, created if missing. */
export async function azuriteTable(name: string): Promise<TableClient> {
  const table = TableClient.fromConnectionString(inject('azuriteConnectionString'), name, { allowInsecureConnection: true });
  await table.createTable();
  return table;
}

/** A queue of the test run's storage emulator, created if missing. */
export async function azuriteQueue(name: string): Promise<QueueClient> {
  const queue = new QueueClient(inject('azuriteConnectionString'), name);
  await queue.createIfNotExists();
  return queue;
}

/** A blob container of the test run's storage emulator, created if missing. */
export async function azuriteContainer(name: string): Promise<ContainerClient> {
  const container = BlobServiceClient.fromConnectionString(inject('azuriteConnectionString')).getContainerClient(name);
  await container.createIfNotExists();
  return container;
}
