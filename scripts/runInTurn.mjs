/**
 * Runs npm scripts one after another, each to its end whatever the one before did, and fails when
 * any of them failed. Each script's output is printed in one piece when it ends, headed by its
 * name and time.
 *
 *   node scripts/runInTurn.mjs typecheck lint:format
 *
 * `npm test` runs the checks in two such chains beside the tests (scripts/testWithChecks.mjs).
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import process from 'node:process';

const scripts = process.argv.slice(2);
if (scripts.length === 0) {
  process.stderr.write('usage: node scripts/runInTurn.mjs <npm script> [<npm script> ...]\n');
  process.exit(2);
}

/** Runs one npm script; resolves with its exit code, everything it wrote and its time. */
function runScript(script) {
  return new Promise((resolve) => {
    const started = Date.now();
    // `npm` is a shell script on Windows (npm.cmd), hence the shell.
    const child = spawn('npm', ['run', '--silent', script], { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.once('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.once('close', (code, signal) => {
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString('utf8'), seconds: (Date.now() - started) / 1000 });
    });
  });
}

const failed = [];
for (const script of scripts) {
  const result = await runScript(script);
  if (result.code !== 0) failed.push(script);
  const verdict = result.code === 0 ? 'ok' : `failed (exit code ${result.code})`;
  process.stdout.write(`\n> npm run ${script}: ${verdict} in ${result.seconds.toFixed(1)} s\n${result.output}`);
}
if (failed.length > 0) {
  process.stdout.write(`\nfailed: ${failed.join(', ')}\n`);
  process.exit(1);
}
