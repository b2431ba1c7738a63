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
import process from 'node:process';
import { describeRun, runProcess } from './runProcess.mjs';

const commands = process.argv.slice(2);
if (commands.length === 0) {
  process.stderr.write('usage: node scripts/runTogether.mjs <command> [<command> ...]\n');
  process.exit(2);
}

const results = await Promise.all(
  commands.map(async (command) => {
    const result = await runProcess(command, [], { shell: true });
    process.stdout.write(describeRun(command, result));
    return { command, ...result };
  }),
);
const failed = results.filter((result) => result.code !== 0);
if (failed.length > 0) {
  process.stderr.write(`\n${failed.length} of ${results.length} checks failed: ${failed.map((result) => result.command).join(', ')}\n`);
  process.exit(1);
}
