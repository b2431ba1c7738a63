import type { TestProject } from 'vitest/node';
import { startAzurite } from '../../src/localhost/startAzurite.js';

declare module 'vitest' {
  export interface ProvidedContext {
    azuriteConnectionString: string;
  }
}

/** Starts one in-memory storage emulator on free ports for the whole test run. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const azurite = await startAzurite({ inMemory: true });
  project.provide('azuriteConnectionString', azurite.connectionString);
  return () => azurite.stop();
}
