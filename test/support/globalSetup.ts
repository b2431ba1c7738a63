import type { TestProject } from 'vitest/node';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startAzurite } from '../../src/localhost/startAzurite.js';
import { findSecretsInRunLogs } from './runLogs.js';

/** Storage accounts on the run's emulator, one claimed by each test service (see startTestService.ts). */
const testServiceAccounts = Array.from({ length: 120 }, (_, i) => `testservice${i}`);

declare module 'vitest' {
  export interface ProvidedContext {
    azuriteConnectionString: string;
    /** Connection strings of accounts of their own for test services, claimed with claimTestAccount. */
    testServiceConnectionStrings: string[];
    /** Folder collecting every log line and issued key of the run (see runLogs.ts). */
    testLogDir: string;
  }
}

/**
 * Starts one in-memory storage emulator on free ports for the whole test run. Besides its
 * development account it holds an account per test service, so services started by different test
 * files never take each other's queue messages, without an emulator of their own each.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // A generous bound: on a machine shared with other runs the emulator can take a minute to listen.
  const azurite = await startAzurite({ inMemory: true, accounts: testServiceAccounts, startTimeoutMs: 120_000 });
  project.provide('azuriteConnectionString', azurite.connectionString);
  project.provide(
    'testServiceConnectionStrings',
    testServiceAccounts.map((account) => azurite.connectionStringFor(account)),
  );
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
