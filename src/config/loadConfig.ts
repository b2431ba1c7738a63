import type { Config, StorageConnection } from './Config.js';
import { ConfigError } from './ConfigError.js';
import { settingNames as names } from './settingNames.js';

export type Settings = Readonly<Record<string, string | undefined>>;

/**
 * Reads the configuration from settings (in Azure: app settings, i.e. `process.env`).
 * Every tunable must be present: an environment that forgot one fails at start-up with the
 * names of what is missing, instead of running on a silent default.
 */
export function loadConfig(settings: Settings): Config {
  const problems: string[] = [];
  const integer = (name: string, min: number): number => {
    const raw = settings[name]?.trim();
    if (raw === undefined || raw === '') {
      problems.push(`${name} is not set`);
      return NaN;
    }
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min) problems.push(`${name} must be an integer >= ${min}`);
    return value;
  };
  const config: Config = {
    storage: readStorage(settings, problems),
    reconcileDelaySeconds: integer(names.reconcileDelaySeconds, 0),
    maxRequestBodyBytes: integer(names.maxRequestBodyBytes, 1),
    rateLimitPerMinute: integer(names.rateLimitPerMinute, 1),
    batchSweepDelaySeconds: integer(names.batchSweepDelaySeconds, 1),
    maxRequestBytesInFlight: integer(names.maxRequestBytesInFlight, 1),
  };
  if (config.maxRequestBytesInFlight < config.maxRequestBodyBytes) {
    problems.push(`${names.maxRequestBytesInFlight} must be at least ${names.maxRequestBodyBytes}, or no large body could ever be read`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/**
 * The two explicit paths to storage. A connection string wins when present (local, Azurite);
 * otherwise the identity-based settings the Functions host itself uses are required.
 */
function readStorage(settings: Settings, problems: string[]): StorageConnection {
  const connectionString = settings[names.storage]?.trim();
  if (connectionString) return Object.freeze({ kind: 'connectionString', connectionString });
  const blobServiceUri = settings[names.storageBlobServiceUri]?.trim();
  const queueServiceUri = settings[names.storageQueueServiceUri]?.trim();
  const tableServiceUri = settings[names.storageTableServiceUri]?.trim();
  if (!blobServiceUri || !queueServiceUri || !tableServiceUri) {
    problems.push(
      `storage: set ${names.storage} (connection string) or all of ${names.storageBlobServiceUri}, ` +
        `${names.storageQueueServiceUri}, ${names.storageTableServiceUri} (managed identity)`,
    );
    return { kind: 'connectionString', connectionString: '' };
  }
  const clientId = settings[names.storageClientId]?.trim() || undefined;
  return Object.freeze({ kind: 'identity', blobServiceUri, queueServiceUri, tableServiceUri, clientId });
}
