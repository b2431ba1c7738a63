import { TableClient, TableServiceClient } from '@azure/data-tables';
import { BlobServiceClient, type ContainerClient } from '@azure/storage-blob';
import { QueueServiceClient, type QueueClient } from '@azure/storage-queue';
import type { TokenCredential } from '@azure/core-auth';
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import type { Config } from '../config/Config.js';
import { expandConnectionString } from './developmentStorage.js';
import { defaultStorageDeadlines, storageDeadlinePolicy, type StorageDeadlines } from './storageDeadlinePolicy.js';
import { containerNames, poisonQueueName, queueNames, tableNames } from './storageNames.js';
import { translateStorageErrors } from './translateStorageErrors.js';

export type TableKey = keyof typeof tableNames;
export type QueueKey = keyof typeof queueNames;

/** Every storage client the service uses, built once per process. */
export interface StorageClients {
  readonly tables: Readonly<Record<TableKey, TableClient>>;
  readonly rawBatches: ContainerClient;
  /** HQ report files; the container is named by configuration (REPORTS_CONTAINER). */
  readonly reports: ContainerClient;
  readonly queues: Readonly<Record<QueueKey, QueueClient>>;
  readonly tableService: TableServiceClient;
  readonly queueService: QueueServiceClient;
  readonly blobService: BlobServiceClient;
}

export interface StorageClientOptions {
  /** Extra pipeline policy on every request (request counting in benchmarks, fault injection in tests). */
  readonly policy?: PipelinePolicy;
  /** Credential for the identity path; `@azure/identity` is loaded only when this path is taken. */
  readonly credential?: TokenCredential;
  /** Deadlines of every storage call (tests shorten them). */
  readonly deadlines?: StorageDeadlines;
}

/** What the clients are built from: the storage connection and the configured container names. */
export type StorageTarget = Pick<Config, 'storage' | 'reportsContainer'>;

/**
 * Builds the clients for one of the two explicit storage paths: a connection string (local,
 * Azurite) or a managed identity (Azure, no keys).
 */
export function createStorageClients(target: StorageTarget, options: StorageClientOptions = {}): StorageClients {
  const connection = target.storage;
  const deadlines = options.deadlines ?? defaultStorageDeadlines;
  const deadlinePolicy = storageDeadlinePolicy(deadlines);
  const additionalPolicies: AdditionalPolicy[] = [
    { policy: deadlinePolicy, position: 'perCall' },
    ...(options.policy ? [{ policy: options.policy, position: 'perRetry' as const }] : []),
  ];
  const retryOptions = { maxTries: 4, retryDelayInMs: 200, maxRetryDelayInMs: 4000, tryTimeoutInMs: deadlines.tryTimeoutMs };

  let tableService: TableServiceClient;
  let makeTable: (name: string) => TableClient;
  let blobService: BlobServiceClient;
  let queueService: QueueServiceClient;

  if (connection.kind === 'connectionString') {
    const cs = expandConnectionString(connection.connectionString);
    const tableOptions = { allowInsecureConnection: true, additionalPolicies };
    tableService = TableServiceClient.fromConnectionString(cs, tableOptions);
    makeTable = (name) => TableClient.fromConnectionString(cs, name, tableOptions);
    blobService = BlobServiceClient.fromConnectionString(cs, storagePipelineOptions(retryOptions, deadlinePolicy, options.policy));
    queueService = QueueServiceClient.fromConnectionString(cs, storagePipelineOptions(retryOptions, deadlinePolicy, options.policy));
  } else {
    const credential = options.credential ?? identityCredential(connection.clientId);
    tableService = new TableServiceClient(connection.tableServiceUri, credential, { additionalPolicies });
    makeTable = (name) => new TableClient(connection.tableServiceUri, name, credential, { additionalPolicies });
    blobService = new BlobServiceClient(
      connection.blobServiceUri,
      credential,
      storagePipelineOptions(retryOptions, deadlinePolicy, options.policy),
    );
    queueService = new QueueServiceClient(
      connection.queueServiceUri,
      credential,
      storagePipelineOptions(retryOptions, deadlinePolicy, options.policy),
    );
  }

  // Every client (and every child client it hands out) raises StorageError, never an SDK error.
  tableService = translateStorageErrors(tableService);
  blobService = translateStorageErrors(blobService);
  queueService = translateStorageErrors(queueService);
  const tables = Object.fromEntries(
    Object.entries(tableNames).map(([key, name]) => [key, translateStorageErrors(makeTable(name))]),
  ) as Record<TableKey, TableClient>;
  const queues = Object.fromEntries(Object.entries(queueNames).map(([key, name]) => [key, queueService.getQueueClient(name)])) as Record<
    QueueKey,
    QueueClient
  >;

  return {
    tables,
    rawBatches: blobService.getContainerClient(containerNames.rawBatches),
    reports: blobService.getContainerClient(target.reportsContainer),
    queues,
    tableService,
    queueService,
    blobService,
  };
}

/**
 * Pipeline options of a blob or queue service client. Their clients share one pipeline with every
 * child client (container, blob, queue), and each client built on it adds the options'
 * `additionalPolicies` to that shared pipeline again, which the pipeline refuses ("duplicate
 * policy names") on the first request. So the extra policy is handed out to the first client
 * only: it is then part of the shared pipeline, runs once per try (after the retry policy), and
 * reaches every blob and queue request.
 */
function storagePipelineOptions(
  retryOptions: RetryOptions,
  deadlinePolicy: PipelinePolicy,
  policy: PipelinePolicy | undefined,
): StorageOptions {
  let handedOut = false;
  const options: StorageOptions = {
    retryOptions,
    get additionalPolicies(): AdditionalPolicy[] {
      if (handedOut) return [];
      handedOut = true;
      return [{ policy: deadlinePolicy, position: 'perCall' }, ...(policy ? [{ policy, position: 'perRetry' as const }] : [])];
    },
  };
  return options;
}

interface AdditionalPolicy {
  policy: PipelinePolicy;
  position: 'perCall' | 'perRetry';
}
interface RetryOptions {
  readonly maxTries: number;
  readonly retryDelayInMs: number;
  readonly maxRetryDelayInMs: number;
  readonly tryTimeoutInMs: number;
}
/** What the blob and queue packages' StoragePipelineOptions both accept, plus the extra policy. */
interface StorageOptions {
  readonly retryOptions: RetryOptions;
  readonly additionalPolicies: AdditionalPolicy[];
}

/** Managed identity in Azure (user-assigned when a client id is set); developer sign-in otherwise. */
function identityCredential(clientId: string | undefined): TokenCredential {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily: the local path never needs it
  const identity = require('@azure/identity') as typeof import('@azure/identity');
  return new identity.DefaultAzureCredential(clientId ? { managedIdentityClientId: clientId } : {});
}

/** Creates every table, container and queue (with its poison queue) if missing. Idempotent. */
export async function ensureStorage(clients: StorageClients): Promise<void> {
  await Promise.all([
    ...Object.values(tableNames).map((name) => clients.tableService.createTable(name)),
    clients.rawBatches.createIfNotExists(),
    clients.reports.createIfNotExists(),
    ...Object.values(queueNames).flatMap((name) => [
      clients.queueService.getQueueClient(name).createIfNotExists(),
      clients.queueService.getQueueClient(poisonQueueName(name)).createIfNotExists(),
    ]),
  ]);
}
