// The stand-in must be in place before anything loads '@azure/functions' and registers.
import { captureRegistrations } from './functionsCoreStandIn.js';
import path from 'node:path';
import { loadConfig, type Settings } from '../config/loadConfig.js';
import { functionTable, partnerApiBase } from '../functions/functionTable.js';
import { keyStatus } from '../services/keyStatus.js';
import { OperatorKeyRepository } from '../storage/OperatorKeyRepository.js';
import { settingNames } from '../config/settingNames.js';
import { registerFunctions } from '../functions/registerFunctions.js';
import type { AppServices } from '../services/AppServices.js';
import { createAppServices, type AppServicesOptions } from '../services/createAppServices.js';
import { hashApiKey } from '../services/hashApiKey.js';
import { ApiKeyRepository } from '../storage/ApiKeyRepository.js';
import { ensureStorage } from '../storage/StorageClients.js';
import { findProjectRoot } from '../config/findProjectRoot.js';
import { consoleLogger, type LocalHostLogger } from './LocalHostLogger.js';
import { QueuePoller } from './QueuePoller.js';
import { TimerRunner } from './TimerRunner.js';
import { readHostSettings } from './readHostSettings.js';
import type { HostTimeouts } from './HostTimeouts.js';
import { startLocalHttpServer } from './startLocalHttpServer.js';

/** The Functions host's own default for FUNCTIONS_REQUEST_BODY_SIZE_LIMIT (100 MB). */
const defaultHostBodyLimitBytes = 104_857_600;

/** FUNCTIONS_REQUEST_BODY_SIZE_LIMIT as the host reads it: a whole number of bytes, else the default. */
function hostBodyLimit(settings: Settings): number {
  const value = Number(settings[settingNames.hostRequestBodySizeLimit]);
  return Number.isSafeInteger(value) && value > 0 ? value : defaultHostBodyLimitBytes;
}

/** AzureWebJobsDisableHomepage as the host reads it: "true" in any case, anything else is off. */
function homepageDisabled(settings: Settings): boolean {
  return settings[settingNames.hostDisableHomepage]?.toLowerCase() === 'true';
}

/** How long a host key found valid is trusted without a storage read, unless told otherwise. */
const defaultHostKeyMemoryMs = 5_000;

/** Remembers keys found valid for `ms` (by hash); invalid keys are looked up every time. */
function rememberValid(check: (keyHash: string) => Promise<boolean>, ms: number): (key: string) => Promise<boolean> {
  const validUntil = new Map<string, number>();
  return async (key) => {
    const hash = hashApiKey(key);
    if ((validUntil.get(hash) ?? 0) > Date.now()) return true;
    const valid = await check(hash);
    if (valid) validUntil.set(hash, Date.now() + ms);
    else validUntil.delete(hash);
    return valid;
  };
}

export interface LocalServiceOptions {
  /** Settings as the Functions host would see them (already merged). */
  readonly settings: Settings;
  /** 0 picks a free port. */
  readonly port: number;
  readonly logger?: LocalHostLogger;
  /** How long a failed queue message stays hidden before its retry (host.json's value by default). */
  readonly queueVisibilityTimeoutSeconds?: number;
  /** Longest pause between polls of an empty queue (host.json's maxPollingInterval by default). */
  readonly queueMaxPollingIntervalMs?: number;
  readonly services?: AppServicesOptions | undefined;
  /** Shorter front-end deadlines (tests). */
  readonly hostTimeouts?: Partial<HostTimeouts> | undefined;
  /**
   * How long a host key found valid is trusted before storage is asked again (default 5 s). The
   * Functions host holds its keys in memory; the benchmark trusts them for its whole run, so its
   * request counts hold no request that Azure's host would not make.
   */
  readonly hostKeyMemoryMs?: number;
  /**
   * false: timer functions are not run on their schedule; the caller runs what they do at moments
   * it chooses (tests, whose sweeps a scheduled run at a real five-minute mark would race). Default true.
   */
  readonly scheduledTimers?: boolean;
}

export interface RunningLocalService {
  /** The partner API, e.g. `http://127.0.0.1:7071/pos/v1` */
  readonly baseUrl: string;
  /** The host itself, e.g. `http://127.0.0.1:7071` (the HQ API is at `${origin}/hq/v1`) */
  readonly origin: string;
  readonly services: AppServices;
  stop(): Promise<void>;
}

/**
 * Runs the service the way the Functions host would: the same function table, registered through
 * `@azure/functions`, served over HTTP with the host's key check, and queue functions fed by
 * polling their queues. Creates the tables, containers and queues first.
 */
export async function startLocalService(options: LocalServiceOptions): Promise<RunningLocalService> {
  const logger = options.logger ?? consoleLogger;
  const config = loadConfig(options.settings);
  const services = createAppServices(config, options.services);
  await ensureStorage(services.storage);

  const functions = captureRegistrations(() => {
    registerFunctions(functionTable, services);
  });
  const host = readHostSettings(path.join(findProjectRoot(), 'host.json'));
  const keys = new ApiKeyRepository(services.storage.tables.apiKeys);
  const operatorKeys = new OperatorKeyRepository(services.storage.tables.operatorKeys);

  const server = await startLocalHttpServer({
    functions,
    routePrefix: host.routePrefix,
    hostBodyLimitBytes: hostBodyLimit(options.settings),
    homepageDisabled: homepageDisabled(options.settings),
    timeouts: { functionMs: host.functionTimeoutSeconds * 1000, ...options.hostTimeouts },
    logger,
    port: options.port,
    // Like the Functions host with its host keys: a key passes from its issue until its revocation,
    // which is when the HQ tool sets and deletes the host key in Azure. An expired key is still
    // held there (nothing deletes it at its expiry), so it reaches the service, which answers the
    // JSON 401 UNAUTHORIZED. The host keeps its keys in memory; here a key seen valid is trusted
    // for a few seconds. The service itself checks expiry on every request and refuses a revoked
    // key within PARTNER_CACHE_SECONDS. Operator keys are host keys too (set beside the partner
    // keys in Azure).
    isValidHostKey: rememberValid(async (keyHash) => {
      const record = (await keys.findByHash(keyHash)) ?? (await operatorKeys.findByHash(keyHash));
      return record !== undefined && keyStatus(record, services.clock()) !== 'REVOKED';
    }, options.hostKeyMemoryMs ?? defaultHostKeyMemoryMs),
  });
  const poller = new QueuePoller({
    functions,
    queueServiceClient: services.storage.queueService,
    logger,
    ...(options.queueVisibilityTimeoutSeconds !== undefined ? { visibilityTimeoutSeconds: options.queueVisibilityTimeoutSeconds } : {}),
    ...(options.queueMaxPollingIntervalMs !== undefined ? { maxPollingIntervalMs: options.queueMaxPollingIntervalMs } : {}),
    functionTimeoutMs: host.functionTimeoutSeconds * 1000,
  });
  await poller.start();
  const timers = new TimerRunner({ functions, logger, functionTimeoutMs: host.functionTimeoutSeconds * 1000 });
  if (options.scheduledTimers ?? true) timers.start();

  return {
    baseUrl: `${server.baseUrl}/${[host.routePrefix, partnerApiBase].filter((part) => part !== '').join('/')}`,
    origin: server.baseUrl,
    services,
    async stop() {
      await Promise.all([server.close(), poller.stop(), timers.stop()]);
    },
  };
}
