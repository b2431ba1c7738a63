import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startAzurite, type RunningAzurite } from '../../src/localhost/startAzurite.js';
import { developmentPorts } from '../../src/storage/developmentStorage.js';

let azurite: RunningAzurite;
beforeAll(async () => {
  azurite = await startAzurite({ inMemory: true });
});
afterAll(async () => {
  await azurite.stop();
});

describe('npm start', () => {
  it('builds, serves /pos/v1 on PORT, and stops cleanly on Ctrl-C (SIGINT)', async () => {
    const port = await freePort();
    // A storage connection other than the development shorthand: no embedded emulator is started.
    const { child, output } = npmStart({ PORT: String(port), AzureWebJobsStorage: azurite.connectionString });
    try {
      await untilListening(child, output);
      expect(output()).toContain(`listening on http://localhost:${port}/pos/v1`);
      const health = await fetch(`http://127.0.0.1:${port}/pos/v1/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const unauthenticated = await fetch(`http://127.0.0.1:${port}/pos/v1/reference/transaction-types`);
      expect(unauthenticated.status).toBe(401);
      // The sample settings turn the host's homepage off, as the template does in Azure.
      const home = await fetch(`http://127.0.0.1:${port}/`);
      expect(home.status).toBe(204);
    } finally {
      // Ctrl-C in a terminal sends SIGINT to the whole foreground process group: npm and the service.
      process.kill(-child.pid!, 'SIGINT');
    }
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    // npm itself ends by the signal (or with 0); the service stops in order.
    expect(code === 0 || signal === 'SIGINT').toBe(true);
    expect(output()).toContain('stopping');
    // Nothing of the group is left running once the service has finished stopping.
    expect(await groupEnded(child.pid!)).toBe(true);
    await expect(fetch(`http://127.0.0.1:${port}/pos/v1/health`)).rejects.toThrow();
  }, 120_000);

  it('stops when only npm is sent SIGTERM, as a supervisor or `kill <pid>` sends it', async () => {
    const port = await freePort();
    const { child, output } = npmStart({ PORT: String(port), AzureWebJobsStorage: azurite.connectionString });
    try {
      await untilListening(child, output);
      expect((await fetch(`http://127.0.0.1:${port}/pos/v1/health`)).status).toBe(200);
      // npm passes the signal to the shell that runs the script; the shell ends without passing it on.
      process.kill(child.pid!, 'SIGTERM');
      await once(child, 'exit');
      // The service sees its launcher gone and stops in order, before the group's wait runs out.
      expect(await groupEnded(child.pid!)).toBe(true);
      expect(output()).toContain('the npm script that started the service has ended');
      expect(output()).toContain('stopping');
      await expect(fetch(`http://127.0.0.1:${port}/pos/v1/health`)).rejects.toThrow();
    } finally {
      if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
    }
  }, 120_000);
});

describe('npm start that cannot start', () => {
  it('stops the storage emulator it started before it exits', async (context) => {
    // The embedded emulator listens on the development ports; an emulator already there (a
    // developer's `npm start`) would make this test about something else.
    if (!(await allFree(Object.values(developmentPorts)))) context.skip();
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    const { child, output } = npmStart({ PORT: String(port), AzureWebJobsStorage: 'UseDevelopmentStorage=true' });
    try {
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(output()).toContain('starting the storage emulator');
      expect(output()).toContain('could not start: listen EADDRINUSE');
      expect(code).not.toBe(0);
      // The emulator was a process of the group; nothing of the group outlives the failed start.
      expect(await groupEnded(child.pid!)).toBe(true);
      expect(await allFree(Object.values(developmentPorts))).toBe(true);
    } finally {
      if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
      await new Promise((resolve) => taken.close(resolve));
    }
  }, 120_000);
});

/** `npm start` with extra environment, in a process group of its own (signalled as a terminal's Ctrl-C signals one). */
function npmStart(env: Record<string, string>): { child: ChildProcessByStdio<null, Readable, Readable>; output: () => string } {
  const child = spawn('npm', ['start', '--silent'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

/** Waits until the service says it listens, it exits, or 90 s pass (the build comes first). */
async function untilListening(child: ChildProcessByStdio<null, Readable, Readable>, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!output().includes('listening on') && Date.now() < deadline && child.exitCode === null) {
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Whether the group `pid` leads has no process left, waiting up to 10 s for its last ones to stop. */
async function groupEnded(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && groupAlive(pid); i++) await new Promise((r) => setTimeout(r, 200));
  return !groupAlive(pid);
}

/** Whether any process of the group `pid` leads is still running. */
function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Whether nothing listens on any of the ports of this machine's loopback address. */
async function allFree(ports: readonly number[]): Promise<boolean> {
  const free = await Promise.all(
    ports.map(
      (port) =>
        new Promise<boolean>((resolve) => {
          const probe = createServer();
          probe.once('error', () => {
            resolve(false);
          });
          probe.listen(port, '127.0.0.1', () => {
            probe.close(() => {
              resolve(true);
            });
          });
        }),
    ),
  );
  return free.every(Boolean);
}
