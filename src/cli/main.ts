/** `npm run hq -- <command>`: the HQ operator's tool, on the service's own storage settings. */
import { loadConfig } from '../config/loadConfig.js';
import { ConfigError } from '../config/ConfigError.js';
import { resolveLocalSettings } from '../config/resolveLocalSettings.js';
import { HealthCheck } from '../services/HealthCheck.js';
import { createStorageClients } from '../storage/StorageClients.js';
import { findProjectRoot } from '../config/findProjectRoot.js';
import { armHostKeys } from './HostKeys.js';
import { HqTool } from './HqTool.js';
import { storageEndpoint } from './storageEndpoint.js';

async function main(): Promise<number> {
  const io = {
    out: (line: string) => {
      console.log(line);
    },
    err: (line: string) => {
      console.error(line);
    },
  };
  let storage;
  try {
    storage = createStorageClients(loadConfig(resolveLocalSettings(process.env, findProjectRoot())));
  } catch (error) {
    if (error instanceof ConfigError) {
      io.err(error.message);
      return 2;
    }
    throw error;
  }
  const argv = process.argv.slice(2);
  if (argv.length > 0 && !argv.includes('--help') && !argv.includes('-h')) {
    // The service creates the tables (locally at start-up, in Azure the templates do); the tool
    // only needs to reach them. Most commands need no more than Table Data Contributor; the README
    // names the five that also send queue messages or read and write blobs.
    if (!(await new HealthCheck(storage.tables.partners).isHealthy())) {
      io.err(
        'error: cannot reach storage. Locally, start the service with `npm start` first; it runs the storage emulator. ' +
          'Against Azure, check the AzureWebJobsStorage__*ServiceUri settings, your sign-in (az login) and your ' +
          'Storage Table Data Contributor role on the account.',
      );
      return 1;
    }
  }
  return new HqTool(storage, io, {
    settings: process.env,
    storageEndpoint: storageEndpoint(storage),
    // The operator's own sign-in (az login).
    hostKeys: (target) => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a function app is named
      const { DefaultAzureCredential } = require('@azure/identity') as typeof import('@azure/identity');
      return armHostKeys(target, new DefaultAzureCredential());
    },
  }).run(argv);
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
