/**
 * Builds the partner kit into packages/partner-kit/dist so that it installs on its own, outside
 * this repository: one ES module bundle of the kit's entry points together with the service code,
 * JSON Schemas and npm packages they import (so the package has no dependencies to fetch), the
 * declarations of its public API, and the licences of the bundled packages. The kit keeps sharing
 * the service's code: the bundle is made from it at build time, never copied into the kit's source.
 *
 * Options: --metafile <file> also writes esbuild's metafile (every input of the bundle) there;
 * --pack <folder> then packs the kit into <folder>/pos-ingestion-partner-kit-<version>.tgz, the
 * file HQ hands to partners (`npm run kit:pack` packs into dist/).
 */
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const kit = path.join(root, 'packages', 'partner-kit');
const out = path.join(kit, 'dist');
const { values } = parseArgs({ options: { metafile: { type: 'string' }, pack: { type: 'string' } }, strict: true });

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const result = await build({
  absWorkingDir: root,
  entryPoints: { index: 'packages/partner-kit/src/index.ts', 'pos-validate': 'packages/partner-kit/src/bin.ts' },
  outdir: out,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  metafile: true,
  logLevel: 'warning',
});
// The bundle is ES modules in .js files; the kit's package.json stays without "type" because the
// repository's own build compiles the kit's sources as CommonJS.
writeFileSync(path.join(out, 'package.json'), JSON.stringify({ type: 'module' }, null, 2) + '\n');

const forbidden = Object.keys(result.metafile.inputs).filter((input) => /(^|\/)@azure\//.test(input));
if (forbidden.length > 0) throw new Error(`The kit bundle must not contain Azure SDK code: ${forbidden.join(', ')}`);

writeDeclarations();
writeLicences(Object.keys(result.metafile.inputs));
if (values.metafile !== undefined) writeFileSync(path.resolve(values.metafile), JSON.stringify(result.metafile));
process.stdout.write(`partner kit built into ${path.relative(root, out)}/\n`);
if (values.pack !== undefined) pack(path.resolve(values.pack));

function pack(folder) {
  mkdirSync(folder, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const [packed] = JSON.parse(execFileSync(npm, ['pack', '--json', '--pack-destination', folder], { cwd: kit, encoding: 'utf8' }));
  process.stdout.write(`${path.join(folder, packed.filename)}: ${packed.size} bytes, ${packed.entryCount} files\n`);
}

/**
 * tsc writes the declarations of index.ts and of every file it reaches, the service's included;
 * only those the public API names are kept, and they may name no package a partner lacks.
 */
function writeDeclarations() {
  const types = path.join(out, 'types');
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(kit, 'tsconfig.types.json')],
    {
      stdio: 'inherit',
    },
  );
  const entry = path.join(types, 'packages', 'partner-kit', 'src', 'index.d.ts');
  const reached = new Set();
  const pending = [entry];
  while (pending.length > 0) {
    const file = pending.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    for (const [, specifier] of readFileSync(file, 'utf8').matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*)['"]([^'"]+)['"]/g)) {
      if (specifier.startsWith('node:')) continue;
      if (!specifier.startsWith('.'))
        throw new Error(`${path.relative(out, file)} names the package ${specifier}, which the kit does not carry.`);
      const target = path.resolve(path.dirname(file), specifier.replace(/\.js$/, '.d.ts'));
      if (!existsSync(target)) throw new Error(`${path.relative(out, file)} names ${specifier}, which has no declaration file.`);
      pending.push(target);
    }
  }
  for (const file of listFiles(types)) if (!reached.has(file)) rmSync(file);
  removeEmptyFolders(types);
  const relativeEntry =
    './' +
    path
      .relative(out, entry)
      .split(path.sep)
      .join('/')
      .replace(/\.d\.ts$/, '.js');
  writeFileSync(path.join(out, 'index.d.ts'), `export * from '${relativeEntry}';\n`);
}

/** The bundle carries code of npm packages: their licences travel with it. */
function writeLicences(inputs) {
  const packages = new Set();
  for (const input of inputs) {
    const match = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    if (match) packages.add(match[1]);
  }
  const sections = [...packages].sort().map((name) => {
    const folder = path.join(root, 'node_modules', name);
    const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(folder).find((file) => /^licen[cs]e/i.test(file));
    if (licenceFile === undefined) throw new Error(`${name} has no licence file to ship with the kit.`);
    const text = readFileSync(path.join(folder, licenceFile), 'utf8').trim();
    return `${manifest.name} ${manifest.version} (${manifest.license})\n\n${text}\n`;
  });
  const header = 'The partner kit bundles the following packages.\n';
  writeFileSync(path.join(out, 'THIRD-PARTY-LICENSES.txt'), [header, ...sections].join('\n' + '-'.repeat(72) + '\n\n'));
}

function listFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    return entry.isDirectory() ? listFiles(full) : [full];
  });
}

function removeEmptyFolders(folder) {
  for (const entry of readdirSync(folder, { withFileTypes: true }))
    if (entry.isDirectory()) removeEmptyFolders(path.join(folder, entry.name));
  if (readdirSync(folder).length === 0) rmSync(folder, { recursive: true });
}
