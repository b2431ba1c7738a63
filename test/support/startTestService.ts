import { randomUUID } from 'node:crypto';
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

export interface TestService extends RunningLocalService {
  /** Every log line the service wrote (for assertions, and for the scan for secrets). */
  readonly logs: string[];
  /** Runs an HQ tool command line against the same storage. */
  hq(...argv: string[]): Promise<{ code: number; out: string[]; err: string[] }>;
  /** Creates a partner with a fresh id, issues a key and registers stores. */
  createPartner(options?: { stores?: string[] }): Promise<TestPartner>;
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

/** Captured log lines of every service started in this test process. */
export const capturedLogs: string[] = [];

export interface TestServiceOptions {
  readonly settings?: Record<string, string>;
  readonly services?: AppServicesOptions;
  readonly queueVisibilityTimeoutSeconds?: number;
}

/**
 * Starts the local service (the same function table and host as `npm start`) on a free port, on a
 * storage emulator of its own (so no other test file's service takes its queue messages), with a
 * one-second reconciliation delay.
 */
export async function startTestService(options: TestServiceOptions = {}): Promise<TestService> {
  const azurite = await startAzurite({ inMemory: true });
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
    BATCH_SWEEP_DELAY_SECONDS: '300',
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
    services: options.services,
  }).catch(async (error: unknown) => {
    await azurite.stop();
    throw error;
  });
  const stop = async (): Promise<void> => {
    await service.stop();
    await azurite.stop();
  };

  const hq: TestService['hq'] = async (...argv) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await new HqTool(service.services.storage, { out: (l) => out.push(l), err: (l) => err.push(l) }).run(argv);
    // The tool prints an issued key on its last line.
    const key = out.at(-1);
    if (argv[0] === 'key' && argv[1] === 'issue' && code === 0 && key !== undefined) {
      appendRunSecrets(runLogDir, key, hashApiKey(key));
    }
    return { code, out, err };
  };

  const createPartner: TestService['createPartner'] = async (partnerOptions = {}) => {
    const partnerId = `p-${randomUUID().slice(0, 8)}`;
    const storeIds = partnerOptions.stores ?? [`S-${randomUUID().slice(0, 6)}`];
    expectOk(await hq('partner', 'create', partnerId));
    const issued = expectOk(await hq('key', 'issue', partnerId));
    const key = issued.out.at(-1);
    if (key === undefined) throw new Error('HQ tool "key issue" printed no key');
    const keyId = /key (key-[0-9a-f]+) issued/.exec(issued.out[0] ?? '')?.[1] ?? '';
    if (storeIds.length > 0) expectOk(await hq('store', 'register', partnerId, ...storeIds));
    return { partnerId, key, keyId, storeIds };
  };

  const call: TestService['call'] = async (partner, method, path, body, headers = {}) => {
    const response = await fetch(`${service.baseUrl}/${path.replace(/^\//, '')}`, {
      method,
      headers: {
        ...(partner ? { 'x-functions-key': partner.key } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body:
        body === undefined ? null : typeof body === 'string' ? body : body instanceof Uint8Array ? Buffer.from(body) : JSON.stringify(body),
    });
    return readResponse(response);
  };

  return { ...service, stop, logs, hq, createPartner, call };
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
