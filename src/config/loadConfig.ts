import type { Config, StorageConnection } from './Config.js';
import { ConfigError } from './ConfigError.js';
import { containerNames } from '../storage/storageNames.js';
import { isEventTypePrefix } from '../events/eventTypes.js';
import { settingNames as names } from './settingNames.js';

/**
 * The longest a revoked key or a deactivated partner may keep working on an instance: a typo in
 * the setting must not turn a revocation into an hour-long wait.
 */
const maxPartnerCacheSeconds = 60;

/**
 * The longest delay between a daily close and its reconciliation. The contract says about 15
 * minutes and tells partners to ask after 30; an hour is far past that, and a day still RECEIVED
 * well after it is taken as stuck (`isStuckDay`). Azure would also refuse a message hidden for
 * more than its 7-day life.
 */
export const maxReconcileDelaySeconds = 3600;

export type Settings = Readonly<Record<string, string | undefined>>;

/**
 * Reads the configuration from settings (in Azure: app settings, i.e. `process.env`).
 * Every tunable must be present: an environment that forgot one fails at start-up with the
 * names of what is missing, instead of running on a silent default.
 */
export function loadConfig(settings: Settings): Config {
  const problems: string[] = [];
  const integer = (name: string, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const raw = settings[name]?.trim();
    if (raw === undefined || raw === '') {
      problems.push(`${name} is not set`);
      return NaN;
    }
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value < min) problems.push(`${name} must be an integer >= ${min}`);
    else if (value > max) problems.push(`${name} must be at most ${max}`);
    return value;
  };
  const storage = readStorage(settings, problems);
  const config: Config = {
    storage,
    reconcileDelaySeconds: integer(names.reconcileDelaySeconds, 0, maxReconcileDelaySeconds),
    maxRequestBodyBytes: integer(names.maxRequestBodyBytes, 1),
    rateLimitPerMinute: integer(names.rateLimitPerMinute, 1),
    maxTransactionsPerStoreDay: integer(names.maxTransactionsPerStoreDay, 1),
    maxBatchesPerStoreDay: integer(names.maxBatchesPerStoreDay, 1),
    batchSweepDelaySeconds: integer(names.batchSweepDelaySeconds, 1),
    maxRequestBytesInFlight: integer(names.maxRequestBytesInFlight, 1),
    partnerCacheSeconds: integer(names.partnerCacheSeconds, 0, maxPartnerCacheSeconds),
    reportsContainer: readReportsContainer(settings, problems),
    eventTypePrefix: readEventTypePrefix(settings, problems),
    webhookAllowPrivateTargets: readAllowPrivateTargets(settings, storage, problems),
  };
  if (config.maxRequestBytesInFlight < config.maxRequestBodyBytes) {
    problems.push(`${names.maxRequestBytesInFlight} must be at least ${names.maxRequestBodyBytes}, or no large body could ever be read`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze(config);
}

/** Azure's container naming rule: 3-63 lowercase letters, digits and single hyphens between them. */
const containerNamePattern = /^(?=.{3,63}$)[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The report container's name. It must not be the raw-batch container: whoever is given read access
 * to the report files must not also be given the partners' raw bodies.
 */
function readReportsContainer(settings: Settings, problems: string[]): string {
  const name = settings[names.reportsContainer]?.trim() ?? '';
  if (name === '') problems.push(`${names.reportsContainer} is not set`);
  else if (!containerNamePattern.test(name)) {
    problems.push(`${names.reportsContainer} must be a blob container name (3-63 lowercase letters, digits and single hyphens)`);
  } else if ((Object.values(containerNames) as string[]).includes(name)) {
    problems.push(`${names.reportsContainer} must name a container of its own, not one the service keeps other data in`);
  }
  return name;
}

/** The event type prefix partners code against; required, since no default can name HQ's domain. */
function readEventTypePrefix(settings: Settings, problems: string[]): string {
  const value = settings[names.eventTypePrefix]?.trim() ?? '';
  if (value === '') problems.push(`${names.eventTypePrefix} is not set`);
  else if (!isEventTypePrefix(value)) {
    problems.push(`${names.eventTypePrefix} must be a reverse-DNS name such as com.contoso.pos (lowercase labels separated by dots)`);
  }
  return value;
}

/**
 * Whether webhooks may target private addresses. Absent means no: the safe side needs no setting.
 * Lifting it is for a developer's machine and the tests, where receivers listen on loopback; with
 * the managed-identity storage path (Azure) the service refuses to start with it, so a copied
 * setting cannot open the service's network to partner-chosen URLs.
 */
function readAllowPrivateTargets(settings: Settings, storage: StorageConnection, problems: string[]): boolean {
  const raw = settings[names.webhookAllowPrivateTargets]?.trim().toLowerCase() ?? '';
  if (raw === '' || raw === 'false') return false;
  if (raw !== 'true') {
    problems.push(`${names.webhookAllowPrivateTargets} must be true or false`);
    return false;
  }
  if (storage.kind === 'identity') {
    problems.push(`${names.webhookAllowPrivateTargets}=true is for local development and tests only, not with managed-identity storage`);
    return false;
  }
  return true;
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
  // An empty client id means "no user-assigned identity", the same as leaving it out.
  const clientIdSetting = settings[names.storageClientId]?.trim();
  const clientId = clientIdSetting === '' ? undefined : clientIdSetting;
  return Object.freeze({ kind: 'identity', blobServiceUri, queueServiceUri, tableServiceUri, clientId });
}
