import type { TestProject } from 'vitest/node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAzurite } from '../../src/localhost/startAzurite.js';
import { findSecretsInRunLogs } from './runLogs.js';

declare module 'vitest' {
  export interface ProvidedContext {
    azuriteConnectionString: string;
    /** Folder collecting every log line and issued key of the run (see runLogs.ts). */
    testLogDir: string;
  }
}

/** Starts one in-memory storage emulator on free ports for the whole test run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const azurite = await startAzurite({ inMemory: true });
  project.provide('azuriteConnectionString', azurite.connectionString);
  const logDir = mkdtempSync(path.join(tmpdir(), 'pos-ingestion-test-logs-'));
  project.provide('testLogDir', logDir);
  return async () => {
    await azurite.stop();
    // The final check of the run: no key or key hash in any log line of any test file.
    const found = findSecretsInRunLogs(logDir);
    rmSync(logDir, { recursive: true, force: true });
    console.log(
      `log scan of the whole run: ${found.lines} lines, ${found.secrets} keys and key hashes, ${found.offending} lines holding one`,
    );
    if (found.offending > 0) throw new Error(`${found.offending} log line(s) of the test run hold an API key or key hash.`);
  };
}
