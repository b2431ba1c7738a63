import type { HostKeysFactory } from './HostKeys.js';
import type { FunctionAppKeys, Options } from './HqContext.js';
import { UsageError, type OptionName } from './parseArgs.js';
import { printable } from './printable.js';
import { Refusal } from './Refusal.js';
import type { StorageEndpoint } from './storageEndpoint.js';

/** Settings that name the function app, so operators need not repeat the options. */
const functionAppSettingNames = {
  functionApp: 'POS_FUNCTION_APP',
  resourceGroup: 'POS_RESOURCE_GROUP',
  subscription: 'AZURE_SUBSCRIPTION_ID',
} as const;

/** The options that name the function app, taken by every command that issues or revokes a key. */
export const functionAppOptions: readonly OptionName[] = ['function-app', 'resource-group', 'subscription'];

/**
 * The function app named by the options, else by the settings, with its host keys; undefined when
 * neither names one (local use). Half a name, or no subscription, is a usage error. A function app
 * with storage that is the local emulator is refused: the host key would be set in Azure and the
 * key's hash stored locally, so the partner would get 401 (the Azure storage settings were not
 * exported in this shell).
 */
export function functionAppKeys(
  options: Options,
  settings: Readonly<Record<string, string | undefined>>,
  hostKeys: HostKeysFactory | undefined,
  storage?: StorageEndpoint,
): FunctionAppKeys | undefined {
  const functionApp = options['function-app'] ?? settings[functionAppSettingNames.functionApp];
  const resourceGroup = options['resource-group'] ?? settings[functionAppSettingNames.resourceGroup];
  const subscriptionId = options.subscription ?? settings[functionAppSettingNames.subscription];
  if (functionApp === undefined && resourceGroup === undefined) return undefined;
  if (!functionApp || !resourceGroup) throw new UsageError('--function-app and --resource-group go together');
  if (!subscriptionId) {
    throw new UsageError(
      `name the subscription with --subscription or ${functionAppSettingNames.subscription} (az account show --query id -o tsv)`,
    );
  }
  if (storage?.emulator) {
    throw new Refusal(
      `function app ${printable(functionApp)} is in Azure, but the storage settings resolve to the local storage emulator ` +
        `(${printable(storage.url)}); nothing was changed. Export AzureWebJobsStorage__blobServiceUri, ` +
        'AzureWebJobsStorage__queueServiceUri, AzureWebJobsStorage__tableServiceUri and REPORTS_CONTAINER for the ' +
        'environment, with AzureWebJobsStorage unset (README, Deploy to Azure, step 4), and run the command again',
    );
  }
  if (!hostKeys) throw new UsageError('this tool cannot manage host keys here');
  return { keys: hostKeys({ subscriptionId, resourceGroup, functionApp }), app: functionApp };
}
