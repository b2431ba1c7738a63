import type { TokenCredential } from '@azure/core-auth';
import type { WebSiteManagementClientOptionalParams } from '@azure/arm-appservice';

/** Where partner keys must also be set as host keys: one function app in Azure. */
export interface FunctionAppTarget {
  readonly subscriptionId: string;
  readonly resourceGroup: string;
  readonly functionApp: string;
}

/** The function app's host keys (the kind that opens every function with authLevel function). */
export interface HostKeys {
  set(name: string, value: string): Promise<void>;
  /** Deletes the key; a key already gone is fine. */
  remove(name: string): Promise<void>;
}

/** Builds the host-key client for a target; main.ts gives it Azure credentials, tests a stand-in. */
export type HostKeysFactory = (target: FunctionAppTarget) => HostKeys;

/** The key type `az functionapp keys set --key-type functionKeys` writes. */
const keyType = 'functionKeys';

/**
 * Host keys through the App Service management API (`PUT`/`DELETE`
 * `.../sites/{app}/host/default/functionKeys/{name}`), as the signed-in operator.
 */
export function armHostKeys(
  target: FunctionAppTarget,
  credential: TokenCredential,
  clientOptions: WebSiteManagementClientOptionalParams = {},
): HostKeys {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a function app is named
  const { WebSiteManagementClient } = require('@azure/arm-appservice') as typeof import('@azure/arm-appservice');
  const client = new WebSiteManagementClient(credential, target.subscriptionId, clientOptions);
  return {
    async set(name, value) {
      await client.webApps.createOrUpdateHostSecret(target.resourceGroup, target.functionApp, keyType, name, { name, value });
    },
    async remove(name) {
      try {
        await client.webApps.deleteHostSecret(target.resourceGroup, target.functionApp, keyType, name);
      } catch (error) {
        if ((error as { statusCode?: unknown }).statusCode !== 404) throw error;
      }
    },
  };
}

/**
 * Name of the host key that carries one partner key: the partner and the key id, so a rotation's
 * keys stand side by side and `key revoke` deletes exactly the right one. Host key names take
 * letters, digits, `-` and `_`.
 */
export function hostKeyName(partnerId: string, keyId: string): string {
  return `${partnerId}-${keyId}`.replace(/[^A-Za-z0-9_-]/g, '_');
}
