/**
 * Runs a benchmark command when its file is the process's entry script (`node dist/bench/<file>.js`),
 * then exits 0, or 1 with the error on stderr. Imported instead (the smoke tests, from TypeScript
 * sources where `module` does not exist), nothing runs. Pass the caller's `module`, or undefined
 * where there is none.
 */
export function runIfEntry(entry: NodeJS.Module | undefined, what: string, main: () => Promise<unknown>): void {
  if (entry === undefined || typeof require === 'undefined' || require.main !== entry) return;
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${what} failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
