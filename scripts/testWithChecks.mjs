/**
 * `npm test`: the static checks (lint, type-check) and the tests, started together. Either failing
 * fails the run.
 *
 *   node scripts/testWithChecks.mjs [vitest arguments]
 *
 * The tests run at normal priority and the checks at the lowest CPU priority. The checks then use
 * only the time the tests leave a core idle (waiting on storage, child processes, a browser), so
 * they cannot slow the tests that check deadlines. What is left of them runs on the free cores
 * once the tests end. Run one after the other, the two took about a minute and a half longer on a
 * fresh clone with two cores. The checks' output is printed in one piece after the tests' output.
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';

const checks = ['npm run --silent lint', 'npm run --silent typecheck'];
/** The lowest priority (highest nice value) a process can give itself. */
const lowestPriority = 19;

/** Runs a program (or, without `args`, a shell command line); resolves with its exit code and, when `capture`, everything it wrote. */
function run(file, args, capture) {
  return new Promise((resolve) => {
    const stdio = capture ? ['ignore', 'pipe', 'pipe'] : 'inherit';
    const child = args ? spawn(file, args, { stdio }) : spawn(file, { shell: true, stdio });
    const chunks = [];
    if (capture) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    child.once('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.once('close', (code, signal) => {
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString('utf8') });
    });
  });
}

const vitestPackage = createRequire(import.meta.url).resolve('vitest/package.json');
const vitest = path.join(path.dirname(vitestPackage), 'vitest.mjs');
const tests = run(process.execPath, [vitest, 'run', ...process.argv.slice(2)], false);

// A child inherits its parent's priority when it starts: lowering this process's priority after
// the tests have started puts every check process (and what they start) at the lowest priority.
try {
  os.setPriority(lowestPriority);
} catch (error) {
  process.stderr.write(`The checks run at normal priority: ${error instanceof Error ? error.message : String(error)}\n`);
}
const started = Date.now();
const checked = run(process.execPath, ['scripts/runTogether.mjs', ...checks], true).then((result) => ({
  ...result,
  seconds: (Date.now() - started) / 1000,
}));

const testResult = await tests;
const checkResult = await checked;
process.stdout.write(
  `\nLint and type-check (beside the tests, at low priority): ${checkResult.code === 0 ? 'ok' : 'failed'} ` +
    `in ${checkResult.seconds.toFixed(1)} s\n${checkResult.output}`,
);
const failed = [...(testResult.code === 0 ? [] : ['tests']), ...(checkResult.code === 0 ? [] : ['lint and type-check'])];
if (failed.length > 0) {
  process.stderr.write(`\nnpm test failed: ${failed.join(' and ')}.\n`);
  process.exit(1);
}
