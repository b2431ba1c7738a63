import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { startLocalService, type RunningLocalService } from '../../src/localhost/startLocalService.js';
import { startAzurite } from '../../src/localhost/startAzurite.js';
import type { LocalHostLogger } from '../../src/localhost/LocalHostLogger.js';
import type { AppServicesOptions } from '../../src/services/createAppServices.js';
import { HqTool } from '../../src/cli/HqTool.js';
import { hashApiKey } from '../../src/services/hashApiKey.js';
import { readResponse, type TestResponse } from './responseBodies.js';
import { appendRunLog, appendRunSecrets } from './runLogs.js';

/** The run's log folder (absent when a config without the global setup runs this file). */
const runLogDir: string | undefined = (() => {
  try {
    return inject('testLogDir');
  } catch {
    return undefined;
  }
})();

/**
 * Claims a storage account of the run's emulator that no other test service uses (an atomic
 * `mkdir` per account in the run's folder); undefined without the global setup or when every
 * account is taken.
 */
export function claimTestAccount(): string | undefined {
  let connectionStrings: string[];
  try {
    connectionStrings = inject('testServiceConnectionStrings');
  } catch {
    return undefined;
  }
  if (runLogDir === undefined) return undefined;
  const claims = path.join(runLogDir, 'claimed-accounts');
  mkdirSync(claims, { recursive: true });
  for (const [i, connectionString] of connectionStrings.entries()) {
    try {
      mkdirSync(path.join(claims, String(i)));
      return connectionString;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return undefined;
}

export interface TestService extends RunningLocalService {
  /** Every log line the service wrote (for assertions, and for the scan for secrets). */
  readonly logs: string[];
  /** Runs an HQ tool command line against the same storage. */
  hq(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }>;
  /**
   * Creates a partner with a fresh id, issues a key and registers stores, at the service's time or
   * at `registeredAt` (the grid expects closes only for days that fall due after a registration).
   */
  createPartner(options?: { stores?: string[]; registeredAt?: Date | undefined }): Promise<TestPartner>;
  /** Issues an HQ operator key (viewer by default) with the HQ tool. */
  createOperator(role?: 'viewer' | 'admin'): Promise<TestOperator>;
  /** fetch() on a path below the host (e.g. `hq/v1/partners`) with the key and a JSON body. */
  callHost(
    caller: { key: string } | null,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<TestResponse>;
  /** fetch() on a path below /pos/v1 with the partner's key and a JSON body; read the body with responseBodies.ts. */
  call(
    partner: TestPartner | { key: string } | null,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<TestResponse>;
}

export interface TestPartner {
  readonly partnerId: string;
  readonly key: string;
  readonly keyId: string;
  readonly storeIds: string[];
}

export interface TestOperator {
  readonly name: string;
  readonly key: string;
  readonly keyId: string;
  readonly role: 'viewer' | 'admin';
}

/** Captured log lines of every service started in this test process. */
export const capturedLogs: string[] = [];

export interface TestServiceOptions {
  readonly settings?: Record<string, string>;
  readonly services?: AppServicesOptions;
  readonly queueVisibilityTimeoutSeconds?: number;
}

/**
 * Starts the local service (the same function table and host as `npm start`) on a free port, on
 * storage of its own (so no other test file's service takes its queue messages): an account of the
 * run's emulator, else an emulator of its own. Reconciliation runs one second after a close.
 */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const claimed = claimTestAccount();
  const azurite =
    claimed === undefined ? await startAzurite({ inMemory: true }) : { connectionString: claimed, stop: () => Promise.resolve() };
  const logs: string[] = [];
  const record = (level: string) => (line: string) => {
    logs.push(`${level} ${line}`);
    capturedLogs.push(`${level} ${line}`);
    appendRunLog(runLogDir, `${level} ${line}`);
  };
  const logger: LocalHostLogger = { info: record('INFO'), warn: record('WARN'), error: record('ERROR') };
  const settings = {
    AzureWebJobsStorage: azurite.connectionString,
    RECONCILE_DELAY_SECONDS: '1',
    MAX_REQUEST_BODY_BYTES: '5242880',
    RATE_LIMIT_PER_MINUTE: '100000',
    MAX_TRANSACTIONS_PER_STORE_DAY: '100000',
    MAX_BATCHES_PER_STORE_DAY: '2000',
    BATCH_SWEEP_DELAY_SECONDS: '300',
    // Off by default: tests see a revoked key, a deactivated partner or a new rate limit at once, as
    // they assert; the cache's own tests turn it on with a clock they move.
    PARTNER_CACHE_SECONDS: '0',
    MAX_REQUEST_BYTES_IN_FLIGHT: '26214400',
    REPORTS_CONTAINER: 'reports',
    EVENT_TYPE_PREFIX: 'com.example.pos',
    ...options.settings,
  };
  const service = await startLocalService({
    settings,
    port: 0,
    logger,
    queueVisibilityTimeoutSeconds: options.queueVisibilityTimeoutSeconds ?? 1,
    // An idle queue is polled at least every 200 ms, so a test waits little for its delayed messages
    // (host.json's 2 s would add up to that to every reconciliation a test waits for).
    queueMaxPollingIntervalMs: 200,
    // Tests run the sweep themselves; a scheduled run at a real five-minute mark would race them.
    scheduledTimers: false,
    services: options.services,
  }).catch(async (error: unknown) => {
    await azurite.stop();
    throw error;
  });
  const stop = async (): Promise<void> => {
    await service.stop();
    await azurite.stop();
  };

  const runHq = async (clock: () => Date, argv: string[]): Promise<{ code: number; out: string[]; err: string[] }> => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await new HqTool(service.services.storage, { out: (l) => out.push(l), err: (l) => err.push(l) }, { clock }).run(argv);
    // The tool prints an issued key on its last line.
    const key = out.at(-1);
    if ((argv[0] === 'key' || argv[0] === 'operator') && argv[1] === 'issue' && code === 0 && key !== undefined) {
      appendRunSecrets(runLogDir, key, hashApiKey(key));
    }
    return { code, out, err };
  };
  const hq: TestService['hq'] = (...argv) => runHq(service.services.clock, argv);

  const createPartner: TestService['createPartner'] = async (partnerOptions = {}) => {
    const partnerId = `p-${randomUUID().slice(0, 8)}`;
    const storeIds = partnerOptions.stores ?? [`S-${randomUUID().slice(0, 6)}`];
    expectOk(await hq('partner', 'create', partnerId));
    const issued = expectOk(await hq('key', 'issue', partnerId));
    const key = issued.out.at(-1);
    if (key === undefined) throw new Error('HQ tool "key issue" printed no key');
    const keyId = /key (key-[0-9a-f]+) issued/.exec(issued.out[0] ?? '')?.[1] ?? '';
    const { registeredAt } = partnerOptions;
    const registrationClock = registeredAt === undefined ? service.services.clock : () => registeredAt;
    if (storeIds.length > 0) expectOk(await runHq(registrationClock, ['store', 'register', partnerId, ...storeIds]));
    return { partnerId, key, keyId, storeIds };
  };

  const createOperator: TestService['createOperator'] = async (role = 'viewer') => {
    const name = `op-${randomUUID().slice(0, 8)}`;
    const issued = expectOk(await hq('operator', 'issue', name, '--role', role));
    const key = issued.out.at(-1);
    const keyId = /operator key (op-[0-9a-f]+) issued/.exec(issued.out[0] ?? '')?.[1];
    if (key === undefined || keyId === undefined) throw new Error('HQ tool "operator issue" printed no key');
    return { name, key, keyId, role };
  };

  const fetchJson = async (url: string, caller: { key: string } | null, method: string, body: unknown, headers: Record<string, string>) => {
    const send = () =>
      fetch(url, {
        method,
        headers: {
          ...(caller ? { 'x-functions-key': caller.key } : {}),
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body:
          body === undefined
            ? null
            : typeof body === 'string'
              ? body
              : body instanceof Uint8Array
                ? Buffer.from(body)
                : JSON.stringify(body),
      });
    let response: Response;
    try {
      response = await send();
    } catch (error) {
      // A pooled keep-alive connection can be reset just as a request goes out on it (seen on a
      // loaded machine); like HTTP clients do, a read is sent again once on a fresh connection.
      if ((method !== 'GET' && method !== 'HEAD') || !isConnectionReset(error)) throw error;
      response = await send();
    }
    return readResponse(response);
  };
  const call: TestService['call'] = (partner, method, path, body, headers = {}) =>
    fetchJson(`${service.baseUrl}/${path.replace(/^\//, '')}`, partner, method, body, headers);
  const callHost: TestService['callHost'] = (caller, method, path, body, headers = {}) =>
    fetchJson(`${service.origin}/${path.replace(/^\//, '')}`, caller, method, body, headers);

  return { ...service, stop, logs, hq, createPartner, createOperator, call, callHost };
}

function expectOk<T extends { code: number; err: string[] }>(result: T): T {
  if (result.code !== 0) throw new Error(`HQ tool failed: ${result.err.join(' ')}`);
  return result;
}

/** Polls until `read` returns a value `done` accepts, or fails after `timeoutMs`. */
export async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/**
 * Waits until one of the service's queues holds no message, visible or in flight (the emulator
 * counts messages still hidden by a visibility delay too): every message sent to it so far has
 * been handled and deleted.
 */
export async function queueDrained(service: TestService, queueKey: keyof TestService['services']['storage']['queues']): Promise<void> {
  const queue = service.services.storage.queues[queueKey];
  const left = await eventually(
    async () => (await queue.getProperties()).approximateMessagesCount ?? 0,
    (count) => count === 0,
  );
  if (left !== 0) throw new Error(`the ${queueKey} queue still holds ${left} message(s)`);
}

/** Waits until the service's reconcile queue holds no message, visible or in flight. */
export function reconcileQueueDrained(service: TestService): Promise<void> {
  return queueDrained(service, 'reconcile');
}

/** True for fetch's failure on a connection the other side reset. */
function isConnectionReset(error: unknown): boolean {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return cause?.code === 'ECONNRESET' || cause?.code === 'UND_ERR_SOCKET';
}
