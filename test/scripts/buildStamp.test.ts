import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import ts from 'typescript';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const work = mkdtempSync(path.join(os.tmpdir(), 'pos-build-stamp-'));

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/**
 * A project of its own with the real script and a build that only records that it ran: it fails
 * when the file `fail` exists, and edits an input while it runs when `edit-during-build` exists.
 */
function makeProject(): string {
  const project = mkdtempSync(path.join(work, 'project-'));
  mkdirSync(path.join(project, 'scripts'));
  mkdirSync(path.join(project, 'src'));
  copyFileSync(path.join(root, 'scripts', 'buildStamp.mjs'), path.join(project, 'scripts', 'buildStamp.mjs'));
  writeFileSync(
    path.join(project, 'record.mjs'),
    `import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
appendFileSync('builds.log', existsSync('dist/.tsbuildinfo') ? 'build\\n' : 'build afresh\\n');
console.log('compiled');
mkdirSync('dist', { recursive: true });
writeFileSync('dist/out.js', '');
writeFileSync('dist/.tsbuildinfo', '');
if (existsSync('slow')) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
if (existsSync('edit-during-build')) appendFileSync('src/a.ts', '// edited while building\\n');
if (existsSync('fail')) process.exit(1);
`,
  );
  writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({
      name: 'stamp-fixture',
      private: true,
      scripts: { build: 'node scripts/buildStamp.mjs begin && node record.mjs && node scripts/buildStamp.mjs end' },
    }),
  );
  writeFileSync(path.join(project, 'src', 'a.ts'), 'export const a = 1;\n');
  return project;
}

/** `buildStamp.mjs ensure` in the project: its exit code, its output, and how many builds ran so far. */
function ensure(project: string): { code: number | null; stdout: string; stderr: string; builds: number } {
  const result = spawnSync(process.execPath, ['scripts/buildStamp.mjs', 'ensure'], { cwd: project, encoding: 'utf8' });
  const log = path.join(project, 'builds.log');
  const builds = existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).length : 0;
  return { code: result.status, stdout: result.stdout, stderr: result.stderr, builds };
}

describe('scripts/buildStamp.mjs ensure', () => {
  let project: string;
  beforeEach(() => {
    project = makeProject();
  });

  it('builds once, then not again while the inputs are the same, and prints nothing on stdout', () => {
    const first = ensure(project);
    expect(first).toMatchObject({ code: 0, builds: 1 });
    // The build's output goes to stderr: `npm run hq --silent -- key issue …` prints only the key.
    expect(first.stdout).toBe('');
    expect(first.stderr).toContain('compiled');
    expect(ensure(project)).toMatchObject({ code: 0, stdout: '', builds: 1 });
  });

  it('builds again after an edit that keeps the size and the modification time', () => {
    ensure(project);
    const file = path.join(project, 'src', 'a.ts');
    const { atime, mtime } = statSync(file);
    writeFileSync(file, 'export const a = 2;\n');
    utimesSync(file, atime, mtime);
    expect(ensure(project).builds).toBe(2);
    expect(ensure(project).builds).toBe(2);
  });

  it('builds again when an input file is added or removed', () => {
    ensure(project);
    writeFileSync(path.join(project, 'src', 'b.ts'), 'export const b = 1;\n');
    expect(ensure(project).builds).toBe(2);
    rmSync(path.join(project, 'src', 'b.ts'));
    expect(ensure(project).builds).toBe(3);
  });

  it('fails with a failed build, and builds again next time though nothing changed', () => {
    writeFileSync(path.join(project, 'fail'), '');
    expect(ensure(project)).toMatchObject({ code: 1, builds: 1 });
    expect(ensure(project)).toMatchObject({ code: 1, builds: 2 });
    rmSync(path.join(project, 'fail'));
    expect(ensure(project)).toMatchObject({ code: 0, builds: 3 });
    expect(ensure(project).builds).toBe(3);
  });

  it('builds again after a build during which an input changed', () => {
    writeFileSync(path.join(project, 'edit-during-build'), '');
    ensure(project);
    rmSync(path.join(project, 'edit-during-build'));
    expect(ensure(project).builds).toBe(2);
    expect(ensure(project).builds).toBe(2);
  });

  it('runs when the project is reached through a symbolic link', () => {
    const link = path.join(work, `link-${path.basename(project)}`);
    symlinkSync(project, link);
    const result = spawnSync(process.execPath, [path.join(link, 'scripts', 'buildStamp.mjs'), 'ensure'], { cwd: link, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stderr).toContain('compiled');
    expect(readFileSync(path.join(project, 'builds.log'), 'utf8').split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('builds again, every output afresh, when a file the last build left in dist/ is gone', () => {
    ensure(project);
    expect(ensure(project).builds).toBe(1);
    rmSync(path.join(project, 'dist', 'out.js'));
    expect(ensure(project).builds).toBe(2);
    // The compiler's incremental state was dropped first, so the deleted output is written again.
    expect(readFileSync(path.join(project, 'builds.log'), 'utf8')).toBe('build afresh\nbuild afresh\n');
    expect(existsSync(path.join(project, 'dist', 'out.js'))).toBe(true);
    expect(ensure(project).builds).toBe(2);
  });

  it('builds again after `forget`, as a build of part of dist/ calls it', () => {
    ensure(project);
    execFileSync(process.execPath, ['scripts/buildStamp.mjs', 'forget'], { cwd: project });
    expect(ensure(project).builds).toBe(2);
  });

  it('two calls at once build once: the second waits for the first and finds the stamp current', async () => {
    writeFileSync(path.join(project, 'slow'), '');
    const run = () =>
      new Promise<number | null>((resolve) => {
        spawn(process.execPath, ['scripts/buildStamp.mjs', 'ensure'], { cwd: project, stdio: 'ignore' }).on('exit', resolve);
      });
    expect(await Promise.all([run(), run()])).toEqual([0, 0]);
    expect(ensure(project).builds).toBe(1);
    expect(existsSync(path.join(project, 'dist', '.build-lock'))).toBe(false);
  });

  it('forgets the stamp when a build begins, so a build stopped midway is not taken as current', () => {
    ensure(project);
    execFileSync(process.execPath, ['scripts/buildStamp.mjs', 'begin'], { cwd: project });
    expect(ensure(project).builds).toBe(2);
  });
});

describe('the project wiring', () => {
  const scripts = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

  it('stamps every `npm run build`, and `npm start` and `npm run hq` build only when the stamp is not current', () => {
    expect(scripts.build).toMatch(/^node scripts\/buildStamp\.mjs begin && .* && node scripts\/buildStamp\.mjs end$/);
    expect(scripts['build:console']).toMatch(/^node scripts\/buildStamp\.mjs forget && /);
    expect(scripts.start).toMatch(/^node scripts\/buildStamp\.mjs ensure && node dist\/src\/localhost\/main\.js$/);
    expect(scripts.hq).toMatch(/^node scripts\/buildStamp\.mjs ensure && node dist\/src\/cli\/main\.js$/);
  });

  it('fingerprints every file the compiler reads, and the console sources', async () => {
    const { buildInputs } = (await import(pathToFileURL(path.join(root, 'scripts', 'buildStamp.mjs')).href)) as { buildInputs: string[] };
    const configPath = path.join(root, 'tsconfig.build.json');
    const config = ts.readConfigFile(configPath, (file) => ts.sys.readFile(file));
    const compiled = ts.parseJsonConfigFileContent(config.config, ts.sys, root, undefined, configPath).fileNames;
    expect(compiled.length).toBeGreaterThan(100);
    const covered = (file: string): boolean => {
      const relative = path.relative(root, file).split(path.sep).join('/');
      return buildInputs.some((input) => relative === input || relative.startsWith(`${input}/`));
    };
    expect(compiled.filter((file) => !covered(file))).toEqual([]);
    for (const file of [
      'console/src/main.tsx',
      'scripts/buildConsole.mjs',
      'schemas/trade-records.schema.json',
      'local.settings.sample.json',
    ]) {
      expect(covered(path.join(root, file)), file).toBe(true);
    }
  });
});
