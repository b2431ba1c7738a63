/**
 * Runs npm scripts one after another, each to its end whatever the one before did, and fails when
 * any of them failed. Each script's output is printed in one piece when it ends, headed by its
 * name and time.
 *
 *   node scripts/runInTurn.mjs typecheck lint:format
 *
 * `npm test` runs the checks in two such chains beside the tests (scripts/testWithChecks.mjs).
 */
import process from 'node:process';
import { describeRun, runProcess } from './runProcess.mjs';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: node scripts/runInTurn.mjs <npm script> [<npm script> ...]\n');
  process.exit(2);
}

const failed = [];
for (const script of scripts) {
  // `npm` is a shell script on Windows (npm.cmd), hence the shell.
  const result = await runProcess('npm', ['run', '--silent', script], { shell: true });
  if (result.code !== 0) failed.push(script);
  process.stdout.write(describeRun(`npm run ${script}`, result));
}
if (failed.length > 0) {
  process.stdout.write(`\nfailed: ${failed.join(', ')}\n`);
  process.exit(1);
}
