/**
 * Builds the HQ console (console/) into dist/console: one script and one style sheet, bundled from
 * npm packages with content-hashed names, and index.html pointing at them. Nothing is loaded from
 * another origin at run time, so the page works on a locked-down network and under a strict CSP.
 *
 * Options: --out <folder> (default dist/console).
 */
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({ options: { out: { type: 'string' } }, strict: true });
const out = path.resolve(root, values.out ?? path.join('dist', 'console'));

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const result = await build({
  absWorkingDir: root,
  entryPoints: { app: 'console/src/main.tsx' },
  outdir: out,
  entryNames: '[name]-[hash]',
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2022', 'chrome111', 'firefox111', 'safari16.4'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  legalComments: 'eof',
  logLevel: 'warning',
});

const outputs = Object.keys(result.metafile.outputs).map((file) => path.basename(file));
const script = outputs.find((name) => name.endsWith('.js'));
const style = outputs.find((name) => name.endsWith('.css'));
if (!script || !style) throw new Error(`The console build produced no script or no style sheet: ${outputs.join(', ')}`);
const page = readFileSync(path.join(root, 'console', 'index.html'), 'utf8')
  .replace('%SCRIPT%', `./${script}`)
  .replace('%STYLE%', `./${style}`);
writeFileSync(path.join(out, 'index.html'), page);
// To stderr: scripts read the answers of `npm run hq --silent`, which builds first, from stdout.
process.stderr.write(`console built into ${path.relative(root, out)}/: index.html, ${script}, ${style}\n`);
