/**
 * Lets `npm start` and `npm run hq` skip a build whose output is current, instead of compiling,
 * writing the API documents and bundling the console on every call (seconds each time, and a
 * rebuild of dist/console under a service that serves it).
 *
 *   node scripts/buildStamp.mjs begin     first step of `npm run build`: forgets the stamp and notes
 *                                         the fingerprint of the inputs as they are now
 *   node scripts/buildStamp.mjs end       last step: the build succeeded, so the noted fingerprint
 *                                         becomes the stamp
 *   node scripts/buildStamp.mjs ensure    runs `npm run build` unless the stamp matches the inputs
 *
 * The fingerprint hashes the path and content of every file the build reads, so any edit, checkout,
 * added or removed file, or dependency change (package-lock.json) shows, whatever the files' times.
 * A build that fails or is stopped leaves no stamp, so the next call builds again; the fingerprint is
 * taken before the build reads anything, so a file edited while it runs is built next time.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Every file or folder `npm run build` reads from the project (node_modules through package-lock.json). */
export const buildInputs = [
  'src',
  'packages/partner-kit/src',
  'bench',
  'console',
  'schemas',
  'scripts/buildConsole.mjs',
  'scripts/buildStamp.mjs',
  'local.settings.sample.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];

const stampFile = path.join(root, 'dist', '.build-inputs');
const pendingFile = `${stampFile}.pending`;

/** SHA-256 over the relative path and content of every input file, in a fixed order. */
function fingerprintOfBuildInputs() {
  const hash = createHash('sha256');
  for (const file of inputFiles()) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    const content = readFileSync(file);
    hash.update(`${relative}\0${content.length}\0`);
    hash.update(content);
  }
  return hash.digest('hex');
}

function inputFiles() {
  const files = [];
  const visit = (entry) => {
    if (!existsSync(entry)) return;
    if (statSync(entry).isDirectory()) {
      for (const name of readdirSync(entry).sort()) visit(path.join(entry, name));
    } else {
      files.push(entry);
    }
  };
  for (const input of buildInputs) visit(path.join(root, input));
  return files;
}

function readStamp() {
  return existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : undefined;
}

function begin() {
  rmSync(stampFile, { force: true });
  mkdirSync(path.dirname(pendingFile), { recursive: true });
  writeFileSync(pendingFile, `${fingerprintOfBuildInputs()}\n`);
}

function end() {
  if (!existsSync(pendingFile)) throw new Error('No build was begun (scripts/buildStamp.mjs begin) before this end.');
  renameSync(pendingFile, stampFile);
}

/** Builds unless the last successful build was of exactly these inputs; returns the exit code. */
function ensure() {
  if (readStamp() === fingerprintOfBuildInputs()) return 0;
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  // The build's own output goes to stderr, so that a script reading the tool's answer gets only it.
  const result = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 2, 2], shell: process.platform === 'win32' });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

const commands = { begin, end, ensure };
const command = process.argv[2];
// Run as a program, not imported (the test reads buildInputs). Both paths resolved: a project
// reached through a symbolic link (macOS's /tmp is one) names the script by another path.
if (isThisScript(process.argv[1])) {
  if (!(command in commands)) {
    process.stderr.write(`usage: node scripts/buildStamp.mjs ${Object.keys(commands).join('|')}\n`);
    process.exit(2);
  }
  process.exitCode = commands[command]() ?? 0;
}

function isThisScript(given) {
  try {
    return given !== undefined && realpathSync(given) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}
