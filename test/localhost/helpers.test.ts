import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import '../../src/localhost/functionsCoreStandIn.js';
import { decodeMessageText } from '../../src/localhost/QueuePoller.js';
import { readHostSettings } from '../../src/localhost/readHostSettings.js';
import { ListeningPorts, startAzurite, type AzuriteOptions } from '../../src/localhost/startAzurite.js';
import { eventually } from '../support/startTestService.js';
import { QueueServiceClient } from '@azure/storage-queue';

/** Folders of written host.json files, removed after each test. */
const folders: string[] = [];
function hostJsonFolder(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'host-json-'));
  folders.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('decodeMessageText', () => {
  it('parses base64 JSON objects and arrays, hands other text over as a string', () => {
    const encode = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
    expect(decodeMessageText(encode('{"a":1}'))?.value).toEqual({ a: 1 });
    expect(decodeMessageText(encode('[1,2]'))?.value).toEqual([1, 2]);
    expect(decodeMessageText(encode('{not json'))?.value).toBe('{not json');
    expect(decodeMessageText(encode('42'))?.value).toBe('42');
    expect(decodeMessageText('not base64!')).toBeUndefined();
  });
});

describe('readHostSettings', () => {
  it("reads the project's host.json", () => {
    expect(readHostSettings()).toEqual({
      routePrefix: '',
      maxDequeueCount: 5,
      queueBatchSize: 32,
      queueNewBatchThreshold: 16,
      queueVisibilityTimeoutSeconds: 30,
      queueMaxPollingIntervalMs: 2_000,
      functionTimeoutSeconds: 300,
    });
  });

  it('fills in the Functions host defaults', () => {
    const dir = hostJsonFolder();
    writeFileSync(path.join(dir, 'host.json'), JSON.stringify({ version: '2.0' }));
    expect(readHostSettings(path.join(dir, 'host.json'))).toEqual({
      routePrefix: 'api',
      maxDequeueCount: 5,
      queueBatchSize: 16,
      queueNewBatchThreshold: 8,
      queueVisibilityTimeoutSeconds: 0,
      queueMaxPollingIntervalMs: 60_000,
      functionTimeoutSeconds: 1800,
    });
  });

  it('reads newBatchThreshold, 0 included, and refuses one that is not a whole number', () => {
    const dir = hostJsonFolder();
    const withThreshold = (value: unknown): string => {
      writeFileSync(
        path.join(dir, 'host.json'),
        JSON.stringify({ version: '2.0', extensions: { queues: { batchSize: 9, newBatchThreshold: value } } }),
      );
      return path.join(dir, 'host.json');
    };
    expect(readHostSettings(withThreshold(0)).queueNewBatchThreshold).toBe(0);
    expect(readHostSettings(withThreshold(40)).queueNewBatchThreshold).toBe(40);
    expect(readHostSettings(withThreshold(undefined)).queueNewBatchThreshold).toBe(4);
    // The host's configuration reads every value as text: "16" is 16 there too.
    expect(readHostSettings(withThreshold('16')).queueNewBatchThreshold).toBe(16);
    for (const bad of [-1, 1.5, 'sixteen', null])
      expect(() => readHostSettings(withThreshold(bad))).toThrow(/newBatchThreshold must be a whole number, 0 or more/);
  });

  it('refuses a batchSize outside 1–32 and a maxDequeueCount below 1 at start-up, as the queue trigger does', () => {
    const dir = hostJsonFolder();
    const withQueues = (queues: Record<string, unknown>): string => {
      writeFileSync(path.join(dir, 'host.json'), JSON.stringify({ version: '2.0', extensions: { queues } }));
      return path.join(dir, 'host.json');
    };
    expect(readHostSettings(withQueues({ batchSize: 1, maxDequeueCount: 1 }))).toMatchObject({ queueBatchSize: 1, maxDequeueCount: 1 });
    expect(readHostSettings(withQueues({ batchSize: '32', maxDequeueCount: '10' }))).toMatchObject({
      queueBatchSize: 32,
      maxDequeueCount: 10,
    });
    for (const bad of [0, 33, 2.5, 'many'])
      expect(() => readHostSettings(withQueues({ batchSize: bad }))).toThrow(/batchSize must be a whole number, 1 to 32/);
    for (const bad of [0, -1, 'never'])
      expect(() => readHostSettings(withQueues({ maxDequeueCount: bad }))).toThrow(/maxDequeueCount must be a whole number, 1 or more/);
  });

  it("states newBatchThreshold in the project's host.json, so an instance's core count does not change it in Azure", () => {
    // Left out, the queue trigger multiplies batchSize / 2 by the processor count on every plan
    // but Consumption, Flex Consumption included: the local host could not match it.
    const queues = (JSON.parse(readFileSync('host.json', 'utf8')) as { extensions: { queues: Record<string, unknown> } }).extensions.queues;
    expect(queues.newBatchThreshold).toBe(readHostSettings().queueNewBatchThreshold);
  });

  it('reads maxPollingInterval to the millisecond and refuses one below 100 ms, as the Functions host does', () => {
    const dir = hostJsonFolder();
    const withMaxPolling = (value: unknown): string => {
      writeFileSync(path.join(dir, 'host.json'), JSON.stringify({ version: '2.0', extensions: { queues: { maxPollingInterval: value } } }));
      return path.join(dir, 'host.json');
    };
    expect(readHostSettings(withMaxPolling('00:00:00.100')).queueMaxPollingIntervalMs).toBe(100);
    expect(readHostSettings(withMaxPolling('00:00:01.5')).queueMaxPollingIntervalMs).toBe(1_500);
    expect(readHostSettings(withMaxPolling('00:01:00')).queueMaxPollingIntervalMs).toBe(60_000);
    expect(() => readHostSettings(withMaxPolling('00:00:00.099'))).toThrow(/maxPollingInterval "00:00:00.099" is below the least allowed/);
    // Milliseconds as a number were Functions 1.x's form; 2.x and later read a time span only.
    expect(() => readHostSettings(withMaxPolling(2000))).toThrow(/must be a time span/);
  });
});

describe('startAzurite', () => {
  it('refuses a port another process listens on, instead of taking that process for the emulator', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as net.AddressInfo).port;
    try {
      await expect(startAzurite({ blobPort: taken, queuePort: taken + 1, tablePort: taken + 2 })).rejects.toThrow(
        `Port ${taken} is already in use (EADDRINUSE)`,
      );
    } finally {
      blocker.close();
    }
  }, 20_000);

  it("learns each service's port from Azurite's own start-up lines, whatever pieces they arrive in", async () => {
    const listening = new ListeningPorts();
    let settled = false;
    void listening.all.then(() => (settled = true));
    const text = [
      'Azurite Blob service is starting at http://127.0.0.1:0',
      'Azurite Blob service is successfully listening at http://127.0.0.1:41023',
      'Azurite Queue service is successfully listening at http://127.0.0.1:35653',
      'Azurite Table service is starting at http://127.0.0.1:0',
      'Azurite Table service is successfully listening at http://127.0.0.1:45605',
      '',
    ].join('\n');
    const cut = text.indexOf('45605') + 2;
    listening.read(text.slice(0, cut));
    await Promise.resolve();
    expect(settled).toBe(false); // the table line is not whole yet
    listening.read(text.slice(cut));
    await expect(listening.all).resolves.toEqual({ blobPort: 41023, queuePort: 35653, tablePort: 45605 });
  });

  it('serves each emulator on the ports it reports, when several start at once', async () => {
    const emulators = await Promise.all([0, 1, 2].map(() => startAzurite({ inMemory: true })));
    try {
      const ports = emulators.flatMap((e) => [e.blobPort, e.queuePort, e.tablePort]);
      expect(new Set(ports).size).toBe(9);
      await Promise.all(
        emulators.map((e, i) => QueueServiceClient.fromConnectionString(e.connectionString).createQueue(`own-${String(i)}`)),
      );
      for (const [i, e] of emulators.entries()) {
        const names: string[] = [];
        for await (const queue of QueueServiceClient.fromConnectionString(e.connectionString).listQueues()) names.push(queue.name);
        expect(names).toEqual([`own-${String(i)}`]);
      }
    } finally {
      await Promise.all(emulators.map((e) => e.stop()));
    }
  }, 30_000);

  it("puts off an in-memory emulator's blob clean-up, and keeps it every 10 minutes for data on disk", async () => {
    const folder = hostJsonFolder();
    // Azurite says how long its clean-up sleeps once it has run the first time, at start.
    const sleepOf = async (options: AzuriteOptions): Promise<string | undefined> => {
      const debugLog = path.join(folder, `${options.inMemory ? 'memory' : 'disk'}.log`);
      const azurite = await startAzurite({ ...options, debugLog });
      try {
        const said = await eventually(
          () => Promise.resolve(existsSync(debugLog) ? /markSweepLoop\(\) Sleep for (\d+)ms/.exec(readFileSync(debugLog, 'utf8')) : null),
          (match) => match !== null,
        );
        return said?.[1];
      } finally {
        await azurite.stop();
      }
    };
    expect(await sleepOf({ inMemory: true })).toBe('2147483647');
    expect(await sleepOf({ inMemory: false, location: path.join(folder, 'data') })).toBe('600000');
  }, 30_000);

  it('finds the emulator from any working folder, not only the project folder', async () => {
    const elsewhere = hostJsonFolder();
    const started = process.cwd();
    process.chdir(elsewhere);
    try {
      const azurite = await startAzurite({ inMemory: true });
      await azurite.stop();
    } finally {
      process.chdir(started);
    }
  }, 20_000);
});

describe('functions-core stand-in under vitest', () => {
  it("is seen by @azure/functions loaded through Node's own require", async () => {
    await import('@azure/functions');
    const cache = (Module as unknown as { _cache: Record<string, unknown> })._cache;
    const libraryPath = path.join('@azure', 'functions', 'dist', 'azure-functions.js');
    expect(Object.keys(cache).some((file) => file.endsWith(libraryPath))).toBe(true);
  });
});
