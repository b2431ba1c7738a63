import { appendFileSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * Every log line of a test run, and every key the run issued, go to files in one folder (each test
 * file runs in its own worker, so memory is not shared). At the end of the run the global
 * teardown checks that no line holds a key or a key hash.
 */
export function appendRunLog(folder: string | undefined, line: string): void {
  if (folder) appendFileSync(path.join(folder, `${process.pid}.log`), `${line.replace(/\n/g, '\\n')}\n`);
}

/** Records secrets no log line may contain (a key and its hash). */
export function appendRunSecrets(folder: string | undefined, ...secrets: string[]): void {
  if (folder) appendFileSync(path.join(folder, `${process.pid}.secrets`), secrets.map((s) => `${s}\n`).join(''));
}

/** Lines of the run's logs that contain any recorded secret; also the number of lines and secrets checked. */
export function findSecretsInRunLogs(folder: string): { lines: number; secrets: number; offending: number } {
  if (!existsSync(folder)) return { lines: 0, secrets: 0, offending: 0 };
  const files = readdirSync(folder);
  const read = (suffix: string) =>
    files.filter((f) => f.endsWith(suffix)).flatMap((f) => readFileSync(path.join(folder, f), 'utf8').split('\n').filter(Boolean));
  const secrets = [...new Set(read('.secrets'))];
  const lines = read('.log');
  const offending = lines.filter((line) => secrets.some((secret) => line.includes(secret))).length;
  return { lines: lines.length, secrets: secrets.length, offending };
}
