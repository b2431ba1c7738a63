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
 *                                         and every file the last build left in dist/ is still there
 *   node scripts/buildStamp.mjs forget    forgets the stamp (a build of part of dist/)
 *
 * The fingerprint hashes the path and content of every file the build reads, so any edit, checkout,
 * added or removed file, or dependency change (package-lock.json) shows, whatever the files' times.
 * A build that fails or is stopped leaves no stamp, so the next call builds again; the fingerprint is
 * taken before the build reads anything, so a file edited while it runs is built next time. An
 * output deleted since the last build is noticed too, and the compiler then writes every output.
 * Two `ensure` calls at once build once: the second waits for the first's lock.
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

const dist = path.join(root, 'dist');
const stampFile = path.join(dist, '.build-inputs');
const pendingFile = `${stampFile}.pending`;
/** Every file the last successful build left in dist/, so that one deleted since is noticed. */
const outputsFile = path.join(dist, '.build-outputs');
/** The compiler's incremental state: without it, the next compile writes every output again. */
const compilerState = path.join(dist, '.tsbuildinfo');
/** Held while `ensure` builds, so that two calls at once (npm start beside npm run hq) build once. */
const lockFile = path.join(dist, '.build-lock');

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

/** Files below dist/ other than this script's own, relative to it. */
function distFiles() {
  const own = new Set([stampFile, pendingFile, outputsFile, lockFile]);
  const files = [];
  const visit = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (!own.has(full)) files.push(path.relative(dist, full));
    }
  };
  if (existsSync(dist)) visit(dist);
  return files.sort();
}

/** Whether a file the last successful build left in dist/ is gone (deleted by hand, or by a console build cut short). */
function outputsMissing() {
  if (!existsSync(outputsFile)) return false;
  const listed = readFileSync(outputsFile, 'utf8').split('\n').filter(Boolean);
  return listed.some((file) => !existsSync(path.join(dist, file)));
}

function begin() {
  // The compiler writes only what changed since its last run: an output deleted since would stay
  // missing, so it starts afresh.
  if (outputsMissing()) rmSync(compilerState, { force: true });
  rmSync(stampFile, { force: true });
  mkdirSync(dist, { recursive: true });
  writeFileSync(pendingFile, `${fingerprintOfBuildInputs()}\n`);
}

function end() {
  if (!existsSync(pendingFile)) throw new Error('No build was begun (scripts/buildStamp.mjs begin) before this end.');
  writeFileSync(outputsFile, `${distFiles().join('\n')}\n`);
  renameSync(pendingFile, stampFile);
}

/** A build of part of dist/ (`npm run build:console`) makes the stamp no longer say what dist/ holds. */
function forget() {
  rmSync(stampFile, { force: true });
}

function isCurrent() {
  return readStamp() === fingerprintOfBuildInputs() && !outputsMissing();
}

/** Builds unless the last successful build was of exactly these inputs and left every output; returns the exit code. */
function ensure() {
  if (isCurrent()) return 0;
  return withBuildLock(() => {
    // Another call may have built while this one waited for the lock.
    if (isCurrent()) return 0;
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    // The build's own output goes to stderr, so that a script reading the tool's answer gets only it.
    const result = spawnSync(npm, ['run', 'build', '--silent'], {
      cwd: root,
      stdio: ['ignore', 2, 2],
      shell: process.platform === 'win32',
    });
    if (result.error) throw result.error;
    return result.status ?? 1;
  });
}

/** Runs `build` holding the lock file; waits while a live process holds it, takes over from a dead one. */
function withBuildLock(build) {
  mkdirSync(dist, { recursive: true });
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      if (!holderAlive()) rmSync(lockFile, { force: true });
      else Atomics.wait(pause, 0, 0, 200);
    }
  }
  try {
    return build();
  } finally {
    rmSync(lockFile, { force: true });
  }
}

function holderAlive() {
  let pid;
  try {
    pid = Number(readFileSync(lockFile, 'utf8'));
  } catch {
    return true; // Gone meanwhile, or not written yet: look again.
  }
  if (!Number.isSafeInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

const commands = { begin, end, ensure, forget };
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
