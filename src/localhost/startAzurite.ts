/**
 * Runs Azurite (the local Azure Storage emulator, a dev dependency) as a child process for the
 * local host and the integration tests.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { findProjectRoot } from '../config/findProjectRoot.js';
import { developmentConnectionString, emulatorAccountsSetting } from '../storage/developmentStorage.js';

/** The emulator's fixed account name and key (public, documented by Microsoft for Azurite). */
export interface AzuritePorts {
  readonly blobPort: number;
  readonly queuePort: number;
  readonly tablePort: number;
}

export interface AzuriteOptions {
  /** 0 or undefined: a free port is picked. */
  readonly blobPort?: number;
  readonly queuePort?: number;
  readonly tablePort?: number;
  /**
   * Keep data in memory only (default). When false, data lives in `location`. In memory, the blob
   * service's periodic clean-up is off (see {@link withoutBlobCleanUp}).
   */
  readonly inMemory?: boolean;
  /** Folder for persisted data; default `<projectRoot>/.azurite` (git-ignored). */
  readonly location?: string;
  /** Folder holding node_modules; default the project's own folder, wherever the process was started. */
  readonly projectRoot?: string;
  /**
   * How long to wait for the three services to say they listen; default 60 s. They usually do
   * within 2 s; on a loaded 2-core machine one was seen to take over 20 s. An emulator that fails
   * exits, which is reported at once: only a hang waits this long.
   */
  readonly startTimeoutMs?: number;
  /** A file for Azurite's debug log (every request, and its own housekeeping), to diagnose the emulator. */
  readonly debugLog?: string;
  /**
   * Accounts besides the development account, each isolated from the others (one emulator can then
   * serve several services that must not see each other's queues).
   */
  readonly accounts?: readonly string[];
}

export interface RunningAzurite extends AzuritePorts {
  /** Explicit connection string for blob, queue and table on the bound ports. */
  readonly connectionString: string;
  /** The same for one of the `accounts` the emulator was started with. */
  connectionStringFor(account: string): string;
  /** Stops the emulator and resolves when the process has exited. */
  stop(): Promise<void>;
}

/**
 * Starts Azurite and resolves once its blob, queue and table services each say they listen, on
 * the ports given or, for 0 or none, on ports the system picks as they bind. Rejects with Azurite's
 * output when it exits early.
 *
 * Readiness is Azurite's own word, not a connection to the port: a port picked beforehand (bound
 * and released to learn a free one) can be taken by another process before Azurite binds it, and
 * a connection would then reach that process while this emulator exits on the clash unnoticed.
 */
export async function startAzurite(options: AzuriteOptions = {}): Promise<RunningAzurite> {
  const projectRoot = options.projectRoot ?? findProjectRoot();
  const asked: AzuritePorts = { blobPort: options.blobPort ?? 0, queuePort: options.queuePort ?? 0, tablePort: options.tablePort ?? 0 };
  // A port given by the caller that something already listens on: said plainly, rather than as
  // Azurite's exit on the clash.
  for (const given of [asked.blobPort, asked.queuePort, asked.tablePort]) {
    if (given !== 0 && (await canConnect(given))) {
      throw new Error(`Port ${given} is already in use (EADDRINUSE): another process, perhaps another storage emulator, listens there.`);
    }
  }
  const inMemory = options.inMemory ?? true;
  const args = [
    ...(inMemory ? ['--import', `data:text/javascript,${encodeURIComponent(withoutBlobCleanUp)}`] : []),
    azuriteEntryPoint(projectRoot),
    '--skipApiVersionCheck',
    '--loose',
    '--silent',
    '--disableTelemetry',
    '--blobHost',
    '127.0.0.1',
    '--queueHost',
    '127.0.0.1',
    '--tableHost',
    '127.0.0.1',
    '--blobPort',
    String(asked.blobPort),
    '--queuePort',
    String(asked.queuePort),
    '--tablePort',
    String(asked.tablePort),
  ];
  if (options.debugLog !== undefined) args.push('--debug', options.debugLog);
  if (inMemory) {
    args.push('--inMemoryPersistence');
  } else {
    const location = options.location ?? path.join(projectRoot, '.azurite');
    await mkdir(location, { recursive: true });
    args.push('--location', location);
  }

  const env = options.accounts ? { ...process.env, AZURITE_ACCOUNTS: emulatorAccountsSetting(options.accounts) } : process.env;
  const child = spawn(process.execPath, args, { cwd: projectRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: string): void => {
    output = (output + chunk).slice(-4000);
  };
  const listening = new ListeningPorts();
  // Decoded by the streams, so that a character split between two chunks stays whole.
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    keep(chunk);
    listening.read(chunk);
  });
  child.stderr.on('data', keep);

  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  let hasExited = false;
  void exited.then(() => {
    hasExited = true;
  });

  const stop = async (): Promise<void> => {
    if (!hasExited) {
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 5_000);
      forced.unref();
      await exited;
      clearTimeout(forced);
    }
  };

  const timeoutMs = options.startTimeoutMs ?? 60_000;
  const spawnFailed = new Promise<never>((_, reject) => {
    child.once('error', (error) => {
      reject(new Error(`Azurite could not be started: ${error.message}`));
    });
    void exited.then(() => {
      reject(new Error(`Azurite exited before it was ready (code ${child.exitCode}): ${output.trim()}`));
    });
  });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`Azurite did not say its three services listen within ${timeoutMs} ms: ${output.trim()}`));
    }, timeoutMs);
  });
  let ports: AzuritePorts;
  try {
    ports = await Promise.race([listening.all, spawnFailed, timedOut]);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  // From here on an exit is reported by stop(), not by these promises.
  spawnFailed.catch(() => undefined);
  timedOut.catch(() => undefined);

  const endpoints = { blob: ports.blobPort, queue: ports.queuePort, table: ports.tablePort };
  return {
    ...ports,
    connectionString: developmentConnectionString(endpoints),
    connectionStringFor: (account) => developmentConnectionString(endpoints, '127.0.0.1', account),
    stop,
  };
}

/**
 * Loaded into an in-memory emulator before Azurite itself: puts off the blob service's clean-up of
 * the data of overwritten and deleted blobs, which Azurite runs at start and then every 10 minutes,
 * to a time no emulator of a test run or a benchmark lives to see. That clean-up drops each piece
 * of data with a request that re-sorts the index of all of them, so after thousands of blob writes
 * (the crash scenario of `npm run chaos`) it kept the emulator from answering anything for about
 * 90 s. Memory is not a concern for such short-lived emulators; an emulator with data on disk (`npm
 * start`) keeps its clean-up. Azurite reads the interval when it creates the blob service, after
 * this has run; the emulator fails to start, rather than stall later, should a version of Azurite
 * no longer have it.
 */
const withoutBlobCleanUp = `
import { createRequire } from 'node:module';
const constants = createRequire(process.cwd() + '/')('azurite/dist/src/blob/utils/constants.js');
if (typeof constants.DEFAULT_GC_INTERVAL_MS !== 'number') throw new Error('Azurite has no blob clean-up interval to put off');
constants.DEFAULT_GC_INTERVAL_MS = 2147483647;
`;

/** Path of Azurite's command-line script, found through its package.json `bin` entry. */
function azuriteEntryPoint(projectRoot: string): string {
  const requireFromProject = createRequire(path.join(projectRoot, 'package.json'));
  const manifestPath = requireFromProject.resolve('azurite/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin?: Record<string, string> | string };
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.azurite;
  if (!bin) throw new Error('The azurite package declares no "azurite" command.');
  return path.resolve(path.dirname(manifestPath), bin);
}

/**
 * A port that was free a moment ago: bind port 0, read what the system chose, release it.
 * @internal for tests that need a port nothing listens on (the emulator binds its own).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => {
        resolve(port);
      });
    });
  });
}

/**
 * Reads Azurite's start-up lines ("Azurite Blob service is successfully listening at
 * http://127.0.0.1:41023") and resolves `all` with the three ports once each service has said so.
 * @internal exported for its own test.
 */
export class ListeningPorts {
  readonly all: Promise<AzuritePorts>;
  #resolve: (ports: AzuritePorts) => void = () => undefined;
  #pending = '';
  readonly #ports = new Map<string, number>();

  constructor() {
    this.all = new Promise((resolve) => (this.#resolve = resolve));
  }

  read(chunk: string): void {
    const lines = (this.#pending + chunk).split('\n');
    this.#pending = lines.pop() ?? '';
    for (const line of lines) {
      const match = /Azurite (Blob|Queue|Table) service is successfully listening at \S+:(\d+)/.exec(line);
      if (match?.[1] !== undefined && match[2] !== undefined) this.#ports.set(match[1], Number(match[2]));
    }
    const [blobPort, queuePort, tablePort] = ['Blob', 'Queue', 'Table'].map((service) => this.#ports.get(service));
    if (blobPort !== undefined && queuePort !== undefined && tablePort !== undefined) this.#resolve({ blobPort, queuePort, tablePort });
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
