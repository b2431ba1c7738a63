import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { functionTable } from '../../src/functions/functionTable.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(path.join(os.tmpdir(), 'pos-package-'));
const stage = path.join(work, '.deploy');
const zipPath = path.join(work, 'app.zip');

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** Registers the staged app the way the Functions worker loads it, and lists what it registered. */
const captureScript = `
const { captureRegistrations } = require('./dist/src/localhost/functionsCoreStandIn.js');
const functions = captureRegistrations(() => require(require('./package.json').main ? './' + require('./package.json').main : './index.js'));
process.stdout.write(JSON.stringify({
  resolvedLibrary: require.resolve('@azure/functions'),
  functions: functions.map((f) => ({ name: f.name, kind: f.kind, route: f.route, methods: f.methods, authLevel: f.authLevel, schedule: f.schedule, queueName: f.queueName })),
}));
`;

describe('npm run package', () => {
  it('stages and zips an app that registers every function of the table from its own dependencies', () => {
    execFileSync(process.execPath, [path.join(root, 'scripts', 'packageApp.mjs'), '--out', stage, '--zip', zipPath], {
      cwd: root,
      stdio: 'pipe',
    });
    for (const file of [
      'host.json',
      'package.json',
      'dist/src/index.js',
      'dist/console/index.html',
      'schemas/trade-records.schema.json',
      'node_modules/@azure/functions/package.json',
    ]) {
      expect(existsSync(path.join(stage, file)), file).toBe(true);
    }
    // Production dependencies only, and nothing local.
    for (const absent of [
      'node_modules/vitest',
      'node_modules/azurite',
      'node_modules/typescript',
      'local.settings.json',
      'dist/bench',
      'test',
      'src',
      'console',
    ]) {
      expect(existsSync(path.join(stage, absent)), absent).toBe(false);
    }
    expect(JSON.parse(readFileSync(path.join(stage, 'host.json'), 'utf8'))).toEqual(
      JSON.parse(readFileSync(path.join(root, 'host.json'), 'utf8')),
    );

    const sample = JSON.parse(readFileSync(path.join(root, 'local.settings.sample.json'), 'utf8')) as { Values: Record<string, string> };
    const output = execFileSync(process.execPath, ['-e', captureScript], {
      cwd: stage,
      env: { PATH: process.env.PATH, ...sample.Values },
      encoding: 'utf8',
    });
    const staged = JSON.parse(output) as {
      resolvedLibrary: string;
      functions: { name: string; kind: string; route?: string; schedule?: string }[];
    };
    expect(staged.resolvedLibrary.startsWith(stage)).toBe(true);
    expect(staged.functions.map((f) => f.name).sort()).toEqual(functionTable.map((f) => f.name).sort());
    for (const fn of functionTable) {
      const found = staged.functions.find((f) => f.name === fn.name)!;
      if (fn.trigger === 'http') expect(found).toMatchObject({ kind: 'http', route: fn.route, authLevel: fn.authLevel });
      if (fn.trigger === 'timer') expect(found).toMatchObject({ kind: 'timer', schedule: fn.schedule });
      if (fn.trigger === 'storageQueue') expect(found).toMatchObject({ kind: 'queue', queueName: fn.queueName });
    }

    // The archive holds the same tree, readable by a standard unzip.
    const listing = execFileSync('unzip', ['-Z1', zipPath], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).split('\n');
    expect(listing).toEqual(
      expect.arrayContaining(['host.json', 'package.json', 'dist/src/index.js', 'node_modules/@azure/functions/package.json']),
    );
    execFileSync('unzip', ['-tq', zipPath]);
  }, 240_000);
});
