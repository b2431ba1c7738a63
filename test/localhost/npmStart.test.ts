import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, startAzurite, type RunningAzurite } from '../../src/localhost/startAzurite.js';

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
    const child = spawn('npm', ['start', '--silent'], {
      env: { ...process.env, PORT: String(port), AzureWebJobsStorage: azurite.connectionString },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so that the group can be signalled as a terminal's Ctrl-C does.
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const deadline = Date.now() + 90_000;
      while (!output.includes('listening on') && Date.now() < deadline && child.exitCode === null) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(output).toContain(`listening on http://localhost:${port}/pos/v1`);
      const health = await fetch(`http://127.0.0.1:${port}/pos/v1/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });
      const unauthenticated = await fetch(`http://127.0.0.1:${port}/pos/v1/reference/transaction-types`);
      expect(unauthenticated.status).toBe(401);
    } finally {
      // Ctrl-C in a terminal sends SIGINT to the whole foreground process group: npm and the service.
      process.kill(-child.pid!, 'SIGINT');
    }
    const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
    // npm itself ends by the signal (or with 0); the service stops in order.
    expect(code === 0 || signal === 'SIGINT').toBe(true);
    expect(output).toContain('stopping');
    // Nothing of the group is left running once the service has finished stopping.
    const groupAlive = (): boolean => {
      try {
        process.kill(-child.pid!, 0);
        return true;
      } catch {
        return false;
      }
    };
    for (let i = 0; i < 50 && groupAlive(); i++) await new Promise((r) => setTimeout(r, 200));
    expect(groupAlive()).toBe(false);
    await expect(fetch(`http://127.0.0.1:${port}/pos/v1/health`)).rejects.toThrow();
  }, 120_000);
});
