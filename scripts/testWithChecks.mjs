/**
 * `npm test`: the tests and the static checks (lint, type-check), started together. Either failing
 * fails the run.
 *
 *   node scripts/testWithChecks.mjs [vitest arguments]
 *
 * The tests run at normal priority and the checks at the lowest CPU priority. The checks then use
 * only the time the tests leave a core idle (waiting on storage, child processes, a browser), so
 * they cannot slow the tests that check deadlines, and what is left of them runs once the tests
 * end. On a fresh clone with two cores, running the two one after the other took about a minute
 * and a half longer.
 *
 * The checks run as two chains of about equal length, one per core: type-aware ESLint, the
 * longest single check, alone; and everything else one after another. A chain goes on after a
 * failing check, so one run reports every failure. The checks' output is printed in one piece
 * after the tests' output.
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';

/** npm scripts, one chain per core. */
const chains = [['lint:eslint'], ['typecheck', 'lint:format', 'lint:openapi', 'lint:knip']];
/** The lowest priority (highest nice value) a process can give itself. */
const lowestPriority = 19;

/** Runs a program; resolves with its exit code and, when `capture`, everything it wrote. */
function run(file, args, options) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(file, args, { stdio: options.capture ? ['ignore', 'pipe', 'pipe'] : 'inherit', shell: options.shell });
    const chunks = [];
    if (options.capture) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    child.once('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.once('close', (code, signal) => {
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString('utf8'), seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** Runs each npm script of a chain in turn, whatever the one before did. */
async function runChain(scripts) {
  const results = [];
  for (const script of scripts) {
    // `npm` is a shell script on Windows (npm.cmd), hence the shell.
    results.push({ script, ...(await run('npm', ['run', '--silent', script], { capture: true, shell: true })) });
  }
  return results;
}

const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const tests = run(process.execPath, [vitest, 'run', ...process.argv.slice(2)], { capture: false, shell: false });

// A child starts with its parent's priority: lowering this process's priority after the tests
// have started puts every check (and every process a check starts) at the lowest priority.
try {
  os.setPriority(lowestPriority);
} catch (error) {
  process.stderr.write(`The checks run at normal priority: ${error instanceof Error ? error.message : String(error)}\n`);
}
const checks = Promise.all(chains.map(runChain)).then((results) => results.flat());

const testResult = await tests;
const checkResults = await checks;
for (const result of checkResults) {
  const verdict = result.code === 0 ? 'ok' : `failed (exit code ${result.code})`;
  process.stdout.write(`\n> npm run ${result.script}: ${verdict} in ${result.seconds.toFixed(1)} s (at low priority)\n${result.output}`);
}
const failed = [...(testResult.code === 0 ? [] : ['the tests']), ...checkResults.filter((r) => r.code !== 0).map((r) => r.script)];
if (failed.length > 0) {
  process.stderr.write(`\nnpm test failed: ${failed.join(', ')}.\n`);
  process.exit(1);
}
