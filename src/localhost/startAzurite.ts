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
  /** Keep data in memory only (default). When false, data lives in `location`. */
  readonly inMemory?: boolean;
  /** Folder for persisted data; default `<projectRoot>/.azurite` (git-ignored). */
  readonly location?: string;
  /** Folder holding node_modules; default the project's own folder, wherever the process was started. */
  readonly projectRoot?: string;
  /** How long to wait for the three services to accept connections; default 20 s. */
  readonly startTimeoutMs?: number;
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
 * Starts Azurite and resolves once blob, queue and table all accept connections. Rejects with
 * Azurite's output when it exits early. When ports are picked here and one was taken in the
 * meantime by another process, it tries again with new ports.
 */
export async function startAzurite(options: AzuriteOptions = {}): Promise<RunningAzurite> {
  const picksPorts = !options.blobPort || !options.queuePort || !options.tablePort;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await startAzuriteOnce(options);
    } catch (error) {
      const portTaken = error instanceof Error && error.message.includes('EADDRINUSE');
      if (!picksPorts || !portTaken || attempt >= 3) throw error;
    }
  }
}

/** 0 or no port means "any free port"; one is picked here so the caller learns which. */
async function portOrFree(port: number | undefined): Promise<number> {
  return port === undefined || port === 0 ? freePort() : port;
}

async function startAzuriteOnce(options: AzuriteOptions): Promise<RunningAzurite> {
  const projectRoot = options.projectRoot ?? findProjectRoot();
  const ports: AzuritePorts = {
    blobPort: await portOrFree(options.blobPort),
    queuePort: await portOrFree(options.queuePort),
    tablePort: await portOrFree(options.tablePort),
  };
  // A port given by the caller that something already listens on would make the readiness check
  // below answer for that other process (often another emulator, with other data), while this
  // one exits on the clash unnoticed.
  for (const given of [options.blobPort, options.queuePort, options.tablePort]) {
    if (given !== undefined && given !== 0 && (await canConnect(given))) {
      throw new Error(`Port ${given} is already in use (EADDRINUSE): another process, perhaps another storage emulator, listens there.`);
    }
  }
  const inMemory = options.inMemory ?? true;
  const args = [
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
    String(ports.blobPort),
    '--queuePort',
    String(ports.queuePort),
    '--tablePort',
    String(ports.tablePort),
  ];
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
  const keep = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout.on('data', keep);
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

  const deadline = Date.now() + (options.startTimeoutMs ?? 20_000);
  const spawnFailed = new Promise<never>((_, reject) => {
    child.once('error', (error) => {
      reject(new Error(`Azurite could not be started: ${error.message}`));
    });
    void exited.then(() => {
      reject(new Error(`Azurite exited before it was ready (code ${child.exitCode}): ${output.trim()}`));
    });
  });
  try {
    await Promise.race([
      Promise.all(
        [ports.blobPort, ports.queuePort, ports.tablePort].map((port) =>
          waitForPort(port, deadline, () =>
            hasExited ? new Error(`Azurite exited before it was ready (code ${child.exitCode}): ${output.trim()}`) : undefined,
          ),
        ),
      ),
      spawnFailed,
    ]);
  } catch (error) {
    await stop();
    throw error;
  }
  // From here on an exit is reported by stop(), not by this promise.
  spawnFailed.catch(() => undefined);

  const endpoints = { blob: ports.blobPort, queue: ports.queuePort, table: ports.tablePort };
  return {
    ...ports,
    connectionString: developmentConnectionString(endpoints),
    connectionStringFor: (account) => developmentConnectionString(endpoints, '127.0.0.1', account),
    stop,
  };
}

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
 * @internal also used by tests that need a port nothing listens on.
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

async function waitForPort(port: number, deadline: number, exitError: () => Error | undefined): Promise<void> {
  for (;;) {
    if (await canConnect(port)) return;
    const error = exitError();
    if (error) throw error;
    if (Date.now() > deadline) throw new Error(`Azurite did not open port ${port} in time.`);
    await new Promise((resolve) => setTimeout(resolve, 50));
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
