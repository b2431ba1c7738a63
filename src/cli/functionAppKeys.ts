import type { HostKeysFactory } from './HostKeys.js';
import type { FunctionAppKeys, Options } from './HqContext.js';
import { UsageError, type OptionName } from './parseArgs.js';

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
 * neither names one (local use). Half a name, or no subscription, is a usage error.
 */
export function functionAppKeys(
  options: Options,
  settings: Readonly<Record<string, string | undefined>>,
  hostKeys: HostKeysFactory | undefined,
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
  if (!hostKeys) throw new UsageError('this tool cannot manage host keys here');
  return { keys: hostKeys({ subscriptionId, resourceGroup, functionApp }), app: functionApp };
}
