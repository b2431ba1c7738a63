/**
 * Runs independent checks at the same time and fails when any of them fails. Each argument is one
 * command line (run by the shell). A check's output is printed in one piece when it ends, headed by
 * its command, so the outputs of checks running together do not interleave.
 *
 *   node scripts/runTogether.mjs "prettier --check ." "eslint ." knip
 *
 * `npm run lint` and `npm test` use it: the checks are single-threaded, so on a machine with more
 * than one core their times overlap instead of adding up.
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import process from 'node:process';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  process.stderr.write('usage: node scripts/runTogether.mjs <command> [<command> ...]\n');
  process.exit(2);
}

/** Runs one command line; resolves with its exit code and everything it wrote. */
function run(command) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(command, { shell: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks = [];
    child.stdout.on('data', (chunk) => chunks.push(chunk));
    child.stderr.on('data', (chunk) => chunks.push(chunk));
    child.once('error', (error) => {
      chunks.push(Buffer.from(`${error.message}\n`));
    });
    child.once('close', (code, signal) => {
      resolve({
        command,
        code: code ?? (signal ? 1 : 0),
        output: Buffer.concat(chunks).toString('utf8'),
        seconds: (Date.now() - started) / 1000,
      });
    });
  });
}

const results = await Promise.all(
  commands.map(async (command) => {
    const result = await run(command);
    const verdict = result.code === 0 ? 'ok' : `failed (exit code ${result.code})`;
    process.stdout.write(`\n> ${command}: ${verdict} in ${result.seconds.toFixed(1)} s\n${result.output}`);
    return result;
  }),
);
const failed = results.filter((result) => result.code !== 0);
if (failed.length > 0) {
  process.stderr.write(`\n${failed.length} of ${results.length} checks failed: ${failed.map((result) => result.command).join(', ')}\n`);
  process.exit(1);
}
