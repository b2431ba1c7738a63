import { QueueServiceClient } from '@azure/storage-queue';
import { HqTool } from '../src/cli/HqTool.js';
import type { Product, ProductBatch, StoreBatch } from '../src/domain/model/payloads.js';
import type { LocalHostLogger } from '../src/localhost/LocalHostLogger.js';
import { startAzurite, type RunningAzurite } from '../src/localhost/startAzurite.js';
import { startLocalService, type RunningLocalService } from '../src/localhost/startLocalService.js';
import { benchMenu } from './tradeRecordGenerator.js';
import { RequestCounter, type StoragePorts } from './RequestCounter.js';
import { LatencyProxy } from './LatencyProxy.js';
import type { StorageDeadlines } from '../src/storage/storageDeadlinePolicy.js';
import { benchSettings } from './benchSettings.js';
import { queueNames, tableNames } from '../src/storage/storageNames.js';
import { azureDelayMs } from './azureLatencyModel.js';

export interface BenchPartner {
  readonly partnerId: string;
  readonly key: string;
  readonly storeIds: readonly string[];
}

export interface BenchEnvironment {
  readonly connectionString: string;
  readonly ports: StoragePorts;
  readonly service: RunningLocalService;
  readonly counter: RequestCounter;
  /** The Azure-shaped latency proxy every storage request goes through; absent in the emulator profile. */
  readonly proxy: LatencyProxy | undefined;
  /** Error lines the service logged (a healthy run has none). */
  readonly errors: string[];
  createPartner(partnerId: string, storeIds: readonly string[]): Promise<BenchPartner>;
  /** POST/PUT a body below /pos/v1 with the partner's key; returns status and parsed body. */
  send(partner: BenchPartner, method: string, path: string, body: Uint8Array | string): Promise<BenchResponse>;
  stop(): Promise<void>;
}

/** Status and parsed JSON body of one request (undefined when the body is empty). */
export interface BenchResponse {
  readonly status: number;
  readonly body: unknown;
}

/** Which storage the service sees: the emulator as it is, or the emulator behind the Azure-shaped latency proxy. */
export type BenchProfile = 'emulator' | 'azure';

/**
 * Starts the storage emulator (unless a connection string is given), in the `azure` profile the
 * latency proxy in front of it, and the local service on a free port, with a request counter on
 * every storage client of the service.
 */
export async function startBenchEnvironment(
  options: {
    connectionString?: string;
    profile?: BenchProfile;
    settings?: Readonly<Record<string, string>>;
    /** Storage deadlines of the service (longer ones let a loaded machine finish loading a day). */
    deadlines?: StorageDeadlines;
  } = {},
): Promise<BenchEnvironment> {
  let azurite: RunningAzurite | undefined;
  let connectionString = options.connectionString;
  if (!connectionString) {
    azurite = await startAzurite({ inMemory: true });
    connectionString = azurite.connectionString;
  }
  let proxy: LatencyProxy | undefined;
  let homesAzurite: RunningAzurite | undefined;
  if (options.profile === 'azure') {
    try {
      homesAzurite = await startAzurite({ inMemory: true, accounts: extraAccountOf(connectionString) });
    } catch (error) {
      await azurite?.stop();
      throw error;
    }
    proxy = new LatencyProxy(azureDelayMs, { tables: homesServedApart, tablePort: homesAzurite.tablePort });
    const proxied = await proxy.start(portsOf(connectionString));
    connectionString = connectionString
      .replace(/(BlobEndpoint=http:\/\/[^:;]+:)\d+/i, `$1${proxied.blobPort}`)
      .replace(/(QueueEndpoint=http:\/\/[^:;]+:)\d+/i, `$1${proxied.queuePort}`)
      .replace(/(TableEndpoint=http:\/\/[^:;]+:)\d+/i, `$1${proxied.tablePort}`);
  }
  const ports = portsOf(connectionString);
  const counter = new RequestCounter(ports);
  const errors: string[] = [];
  const logger: LocalHostLogger = { info: () => undefined, warn: () => undefined, error: (line) => errors.push(line) };
  let service: RunningLocalService;
  try {
    service = await startLocalService({
      settings: { ...benchSettings(connectionString), ...options.settings },
      port: 0,
      logger,
      hostKeyMemoryMs: hostKeysHeldInMemoryMs,
      services: { policy: counter.policy, ...(options.deadlines ? { deadlines: options.deadlines } : {}) },
    });
  } catch (error) {
    await proxy?.stop();
    await homesAzurite?.stop();
    await azurite?.stop();
    throw error;
  }

  const send: BenchEnvironment['send'] = async (partner, method, path, body) => {
    const response = await fetch(`${service.baseUrl}/${path}`, {
      method,
      headers: { 'x-functions-key': partner.key, 'content-type': 'application/json' },
      body: body as string,
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  };

  const hq = async (...argv: string[]): Promise<string[]> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await new HqTool(service.services.storage, { out: (l) => out.push(l), err: (l) => err.push(l) }).run(argv);
    if (code !== 0) throw new Error(`HQ tool "${argv.slice(0, 2).join(' ')}" failed: ${err.join(' ')}`);
    return out;
  };

  // Outside the counted pipeline: waiting for the queues is no work of the service.
  const queues = QueueServiceClient.fromConnectionString(connectionString);
  const createPartner: BenchEnvironment['createPartner'] = async (partnerId, storeIds) => {
    await hq('partner', 'create', partnerId);
    const issued = await hq('key', 'issue', partnerId);
    await hq('store', 'register', partnerId, ...storeIds);
    // The tool prints the new key on its last line.
    const key = issued.at(-1);
    if (key === undefined) throw new Error(`HQ tool "key issue" printed no key for ${partnerId}`);
    const partner: BenchPartner = { partnerId, key, storeIds };
    expectAccepted(await send(partner, 'PUT', 'stores', JSON.stringify(storeBatch(storeIds))), 'stores');
    expectAccepted(await send(partner, 'PUT', 'products', JSON.stringify(productBatch())), 'products');
    expectAccepted(
      await send(
        partner,
        'PUT',
        'mappings/transaction-types',
        JSON.stringify({
          batch_id: '00000000-0000-4000-8000-0000000000a3',
          mappings: [
            { source_code: '01', source_name: 'Sale', standard_code: 'SALE' },
            { source_code: '02', source_name: 'Refund', standard_code: 'REFUND' },
          ],
        }),
      ),
      'mappings',
    );
    // The mapping upload starts a rerun chain on the queue; it must not run inside a measurement.
    await queuesDrained(queues);
    return partner;
  };

  return {
    connectionString,
    ports,
    service,
    counter,
    proxy,
    errors,
    createPartner,
    send,
    async stop() {
      await service.stop();
      await proxy?.stop();
      await homesAzurite?.stop();
      await azurite?.stop();
    },
  };
}

/**
 * Pushes a trade-record batch the way the contract tells a partner to: a 5xx is sent again with
 * the same batch_id after 5 s (the longest Retry-After the service gives), at most 11 times; from
 * the third time the sweep is run first, as its timer would. On a loaded machine the emulator can
 * miss a storage deadline. Calls `onResend` before each resend.
 */
export async function pushUntilAcknowledged(
  env: BenchEnvironment,
  partner: BenchPartner,
  text: string,
  onResend: (status: number) => void,
): Promise<void> {
  let response = await env.send(partner, 'POST', 'trade-records', text);
  for (let attempt = 1; response.status >= 500 && attempt < 12; attempt++) {
    onResend(response.status);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    if (attempt >= 3) await env.service.services.sweeper.sweepStale().catch(() => undefined);
    response = await env.send(partner, 'POST', 'trade-records', text);
  }
  expectAccepted(response, 'trade-records', env.errors);
}

/**
 * Waits until every queue of the service is empty: a message counts until its handler has finished
 * and deleted it, delayed ones included. Throws after a minute (a handler that never finishes).
 */
async function queuesDrained(queues: QueueServiceClient): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const counts = await Promise.all(
      Object.values(queueNames).map(async (name) => (await queues.getQueueClient(name).getProperties()).approximateMessagesCount ?? 0),
    );
    if (counts.every((count) => count === 0)) return;
    if (Date.now() > deadline) throw new Error(`The service's queues still hold messages after a minute: ${counts.join(', ')}.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Throws unless the push was acknowledged; `serviceErrors` (the service's error log) go into the message. */
export function expectAccepted(response: BenchResponse, what: string, serviceErrors: readonly string[] = []): void {
  if (response.status !== 202 && response.status !== 200) {
    const logged = serviceErrors.length > 0 ? `; service log: ${serviceErrors.slice(-3).join(' | ')}` : '';
    throw new Error(`${what} push answered ${response.status}: ${JSON.stringify(response.body ?? null).slice(0, 600)}${logged}`);
  }
}

function storeBatch(storeIds: readonly string[]): StoreBatch {
  return {
    batch_id: '00000000-0000-4000-8000-0000000000a1',
    stores: storeIds.map((storeId) => ({
      store_id: storeId,
      store_name: `Store ${storeId}`,
      country_code: 'US',
      currency: 'USD',
      time_zone: 'America/New_York',
      locale: 'en-US',
      workday_start: '04:00',
      prices_include_tax: false,
      status: 'ACTIVE',
      last_modified_at: '2026-02-20T09:00:00-05:00',
    })),
  };
}

function productBatch(): ProductBatch {
  const ids = new Map<string, { name: string; type: Product['product_type']; price: number }>();
  for (const entry of benchMenu) {
    ids.set(entry.productId, { name: entry.name, type: entry.type, price: entry.priceCents });
    for (const child of entry.children ?? []) ids.set(child.productId, { name: child.name, type: child.type, price: 0 });
  }
  return {
    batch_id: '00000000-0000-4000-8000-0000000000a2',
    products: [...ids].map(([productId, p]) => ({
      product_id: productId,
      name: { 'en-US': p.name },
      unit_price: `${Math.floor(p.price / 100)}.${String(p.price % 100).padStart(2, '0')}`,
      currency: 'USD',
      status: 'ACTIVE',
      version: 1,
      last_modified_at: '2026-02-20T09:00:00-05:00',
      product_type: p.type,
    })),
  };
}

/** The Functions host holds its keys in memory: the local host's key check is left out of every count. */
const hostKeysHeldInMemoryMs = 60 * 60 * 1000;

/**
 * The tables the Azure-shaped profile serves from an emulator of their own. A push writes its
 * index rows to one partition of the store-day, and the home of each trade_record_id to one of the
 * partner's hashed partitions of the homes table: in Azure those are partitions served side by
 * side, where the one emulator thread would answer the homes' transactions after the index's
 * (bench/ROUNDS.md, round 22).
 */
const homesServedApart: ReadonlySet<string> = new Set([tableNames.tradeRecordHomes]);

/** The account of a connection string when it is not the emulator's development account (which every emulator has). */
function extraAccountOf(connectionString: string): string[] {
  const name = /AccountName=([^;]+)/i.exec(connectionString)?.[1];
  return name === undefined || name === 'devstoreaccount1' ? [] : [name];
}

/** Blob, queue and table ports of an explicit emulator connection string. */
function portsOf(connectionString: string): StoragePorts {
  const port = (name: string): number => {
    const match = new RegExp(`${name}=http://[^:;]+:(\\d+)`, 'i').exec(connectionString);
    if (!match) throw new Error(`The connection string names no ${name} with a port.`);
    return Number(match[1]);
  };
  return { blobPort: port('BlobEndpoint'), queuePort: port('QueueEndpoint'), tablePort: port('TableEndpoint') };
}
