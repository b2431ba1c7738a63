/**
 * `npm test`: the tests and the static checks (lint, type-check), started together. Either failing
 * fails the run.
 *
 *   node scripts/testWithChecks.mjs [vitest arguments]
 *
 * The tests run at normal priority and the checks at low CPU priority. The checks then use only
 * the time the tests leave a core idle (waiting on storage, child processes, a browser), so they
 * do not slow the tests that check deadlines, and what is left of them runs once the tests end.
 * On a fresh clone with two cores this saves about a minute over running one after the other.
 *
 * The checks run in two chains, one per core: type-aware ESLint, the longest single check, alone;
 * and everything else one after another. A chain goes on after a failing check, so one run
 * reports every failure. The checks' output is printed in one piece after the tests' output.
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { fileURLToPath, URL } from 'node:url';
import { runProcess } from './runProcess.mjs';

/**
 * npm scripts in two chains, one per core, each run by scripts/runInTurn.mjs at its CPU priority
 * (a nice value: 19 is the lowest). Type-aware ESLint, the longest check, runs a little above the
 * rest, so it takes more of the idle time while the tests run and the two chains end together.
 */
const chains = [
  { priority: 15, scripts: ['lint:eslint'] },
  { priority: 19, scripts: ['typecheck', 'lint:format', 'lint:openapi', 'lint:knip'] },
];

const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const tests = runProcess(process.execPath, [vitest, 'run', ...process.argv.slice(2)], { capture: false });

// A child starts with its parent's priority, and a process may lower its own priority but never
// raise it again: the chains start in order of rising nice value, each after this process took it.
const checks = chains.map(({ priority, scripts }) => {
  try {
    os.setPriority(priority);
  } catch (error) {
    process.stderr.write(`The checks run at normal priority: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  return runProcess(process.execPath, [fileURLToPath(new URL('runInTurn.mjs', import.meta.url)), ...scripts]);
});

const testResult = await tests;
const checkResults = await Promise.all(checks);
process.stdout.write(`\nLint and type-check (beside the tests, at low priority):\n${checkResults.map((r) => r.output).join('')}`);
const failed = [...(testResult.code === 0 ? [] : ['the tests']), ...(checkResults.some((r) => r.code !== 0) ? ['lint or type-check'] : [])];
if (failed.length > 0) {
  process.stderr.write(`\nnpm test failed: ${failed.join(' and ')}.\n`);
  process.exit(1);
}
