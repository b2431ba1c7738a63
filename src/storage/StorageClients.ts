import { TableClient, TableServiceClient } from '@azure/data-tables';
import { BlobServiceClient, type ContainerClient } from '@azure/storage-blob';
import { QueueServiceClient, type QueueClient } from '@azure/storage-queue';
import type { TokenCredential } from '@azure/core-auth';
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import type { StorageConnection } from '../config/Config.js';
import { expandConnectionString } from './developmentStorage.js';
import { containerNames, poisonQueueName, queueNames, tableNames } from './storageNames.js';

export type TableKey = keyof typeof tableNames;
export type QueueKey = keyof typeof queueNames;

/** Every storage client the service uses, built once per process. */
export interface StorageClients {
  readonly tables: { readonly [K in TableKey]: TableClient };
  readonly rawBatches: ContainerClient;
  readonly queues: { readonly [K in QueueKey]: QueueClient };
  readonly tableService: TableServiceClient;
  readonly queueService: QueueServiceClient;
  readonly blobService: BlobServiceClient;
}

export interface StorageClientOptions {
  /** Extra pipeline policy on every request (request counting in benchmarks, fault injection in tests). */
  readonly policy?: PipelinePolicy;
  /** Credential for the identity path; `@azure/identity` is loaded only when this path is taken. */
  readonly credential?: TokenCredential;
}

/**
 * Builds the clients for one of the two explicit storage paths: a connection string (local,
 * Azurite) or a managed identity (Azure, no keys).
 */
export function createStorageClients(connection: StorageConnection, options: StorageClientOptions = {}): StorageClients {
  const additionalPolicies = options.policy ? [{ policy: options.policy, position: 'perRetry' as const }] : [];
  const retryOptions = { maxTries: 4, retryDelayInMs: 200, maxRetryDelayInMs: 4000, tryTimeoutInMs: 30_000 };

  let tableService: TableServiceClient;
  let makeTable: (name: string) => TableClient;
  let blobService: BlobServiceClient;
  let queueService: QueueServiceClient;

  if (connection.kind === 'connectionString') {
    const cs = expandConnectionString(connection.connectionString);
    const tableOptions = { allowInsecureConnection: true, additionalPolicies };
    tableService = TableServiceClient.fromConnectionString(cs, tableOptions);
    makeTable = (name) => TableClient.fromConnectionString(cs, name, tableOptions);
    blobService = BlobServiceClient.fromConnectionString(cs, { retryOptions, additionalPolicies } as never);
    queueService = QueueServiceClient.fromConnectionString(cs, { retryOptions, additionalPolicies } as never);
  } else {
    const credential = options.credential ?? identityCredential(connection.clientId);
    tableService = new TableServiceClient(connection.tableServiceUri, credential, { additionalPolicies });
    makeTable = (name) => new TableClient(connection.tableServiceUri, name, credential, { additionalPolicies });
    blobService = new BlobServiceClient(connection.blobServiceUri, credential, { retryOptions, additionalPolicies } as never);
    queueService = new QueueServiceClient(connection.queueServiceUri, credential, { retryOptions, additionalPolicies } as never);
  }

  const tables = Object.fromEntries(
    Object.entries(tableNames).map(([key, name]) => [key, makeTable(name)]),
  ) as { [K in TableKey]: TableClient };
  const queues = Object.fromEntries(
    Object.entries(queueNames).map(([key, name]) => [key, queueService.getQueueClient(name)]),
  ) as { [K in QueueKey]: QueueClient };

  return {
    tables,
    rawBatches: blobService.getContainerClient(containerNames.rawBatches),
    queues,
    tableService,
    queueService,
    blobService,
  };
}

/** Managed identity in Azure (user-assigned when a client id is set); developer sign-in otherwise. */
function identityCredential(clientId: string | undefined): TokenCredential {
  // Loaded lazily: the local path never needs it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const identity = require('@azure/identity') as typeof import('@azure/identity');
  return new identity.DefaultAzureCredential(clientId ? { managedIdentityClientId: clientId } : {});
}

/** Creates every table, container and queue (with its poison queue) if missing. Idempotent. */
export async function ensureStorage(clients: StorageClients): Promise<void> {
  await Promise.all([
    ...Object.values(tableNames).map((name) => clients.tableService.createTable(name)),
    clients.rawBatches.createIfNotExists(),
    ...Object.values(queueNames).flatMap((name) => [
      clients.queueService.getQueueClient(name).createIfNotExists(),
      clients.queueService.getQueueClient(poisonQueueName(name)).createIfNotExists(),
    ]),
  ]);
}
