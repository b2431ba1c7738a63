import { fork, type Serializable } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Runs a benchmark job in a child process of the compiled benchmark (`script`), so that its memory
 * is its own: the request goes over IPC, and the child answers `{ ok, report }` or `{ ok, error }`.
 * Run from TypeScript sources (the smoke tests) there is no compiled script: the job then runs in
 * this process through `runHere`, and its memory figure is this whole process's.
 */
export function forkJob<Request extends Serializable, Report>(
  what: string,
  script: string,
  request: Request,
  runHere: (request: Request) => Promise<Report>,
  execArgv: readonly string[] = [],
): Promise<Report> {
  if (!existsSync(script)) return runHere(request);
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { execArgv: [...process.execArgv, ...execArgv], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let settled = false;
    child.once('message', (reply: { ok: true; report: Report } | { ok: false; error: string }) => {
      settled = true;
      if (reply.ok) resolve(reply.report);
      else reject(new Error(`${what} child failed: ${reply.error}`));
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (!settled) reject(new Error(`${what} child exited with code ${code} before reporting`));
    });
    child.send(request);
  });
}
