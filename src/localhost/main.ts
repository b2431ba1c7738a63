/**
 * `npm start`: the service on this machine. Starts an embedded storage emulator when the storage
 * setting is the development shorthand, serves http://localhost:7071/pos/v1 (PORT overrides), and
 * stops everything it started on Ctrl-C, on SIGTERM, or when the npm that launched it is gone.
 */
import { startLocalService } from './startLocalService.js';
import path from 'node:path';
import { settingNames } from '../config/settingNames.js';
import { ConfigError } from '../config/ConfigError.js';
import { developmentConnectionString, developmentPorts, isDevelopmentStorage } from '../storage/developmentStorage.js';
import { findProjectRoot } from '../config/findProjectRoot.js';
import { consoleLogger } from './LocalHostLogger.js';
import { resolveLocalSettings } from '../config/resolveLocalSettings.js';
import { startAzurite, type RunningAzurite } from './startAzurite.js';
import { localPort } from './localPort.js';
import { whenParentExits } from './whenParentExits.js';

async function main(): Promise<void> {
  // Taken first: npm may be stopped while the emulator and the service start.
  const launcher = process.ppid;
  const root = findProjectRoot();
  const settings = { ...resolveLocalSettings(process.env, root) };
  const port = localPort(process.env.PORT);

  let azurite: RunningAzurite | undefined;
  const storage = settings[settingNames.storage];
  if (storage && isDevelopmentStorage(storage)) {
    consoleLogger.info(`starting the storage emulator on ports ${Object.values(developmentPorts).join(', ')} (data in .azurite/)`);
    azurite = await startAzurite({
      blobPort: developmentPorts.blob,
      queuePort: developmentPorts.queue,
      tablePort: developmentPorts.table,
      inMemory: false,
      location: path.join(root, '.azurite'),
      projectRoot: root,
    });
    settings[settingNames.storage] = developmentConnectionString();
  }

  let service;
  try {
    service = await startLocalService({ settings, port });
  } catch (error) {
    // The emulator is a process of its own: left running, it would hold its ports and data folder
    // after this one exits, and the next start would fail on them.
    await azurite?.stop();
    throw error;
  }
  consoleLogger.info(`POS ingestion service listening on ${service.baseUrl.replace('127.0.0.1', 'localhost')}`);
  consoleLogger.info(`HQ API on ${service.origin.replace('127.0.0.1', 'localhost')}/hq/v1`);
  consoleLogger.info(`HQ console on ${service.origin.replace('127.0.0.1', 'localhost')}/console/`);

  let stopping = false;
  const stop = async (): Promise<void> => {
    if (stopping) return;
    stopping = true;
    consoleLogger.info('stopping');
    await service.stop();
    await azurite?.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  // Started by an npm script, the service ends with it. Run directly (`nohup node …`), it is
  // the caller's to stop, and it outlives its shell.
  if (process.env.npm_lifecycle_event !== undefined) {
    whenParentExits(launcher, () => {
      consoleLogger.info('the npm script that started the service has ended');
      void stop();
    });
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) consoleLogger.error(error.message);
  else consoleLogger.error(`could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
