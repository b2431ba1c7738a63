/**
 * Runs a program for the scripts that run checks (runTogether, runInTurn, testWithChecks), and
 * the one way they print a finished check.
 */
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

/**
 * Runs `file` with `args` (with `shell`, `file` may be a whole command line); resolves with its
 * exit code, its time and, with `capture`, everything it wrote (else its output goes straight to
 * this process's).
 */
export function runProcess(file, args = [], { shell = false, capture = true } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(file, args, { shell, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    const chunks = [];
    if (capture) {
      child.stdout.on('data', (chunk) => chunks.push(chunk));
      child.stderr.on('data', (chunk) => chunks.push(chunk));
    }
    child.once('error', (error) => chunks.push(Buffer.from(`${error.message}\n`)));
    child.once('close', (code, signal) => {
      resolve({ code: code ?? (signal ? 1 : 0), output: Buffer.concat(chunks).toString('utf8'), seconds: (Date.now() - started) / 1000 });
    });
  });
}

/** A finished check's output, headed by its name, verdict and time. */
export function describeRun(name, result) {
  const verdict = result.code === 0 ? 'ok' : `failed (exit code ${result.code})`;
  return `\n> ${name}: ${verdict} in ${result.seconds.toFixed(1)} s\n${result.output}`;
}
