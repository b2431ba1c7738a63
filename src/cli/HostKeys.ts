import type { TokenCredential } from '@azure/core-auth';
import {
  bearerTokenAuthenticationPolicy,
  createDefaultHttpClient,
  createHttpHeaders,
  createPipelineFromOptions,
  createPipelineRequest,
  type HttpClient,
  type PipelineRetryOptions,
} from '@azure/core-rest-pipeline';

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

/** How the management API is reached; the defaults are Azure's public cloud. */
export interface ManagementClientOptions {
  readonly endpoint?: string;
  readonly httpClient?: HttpClient;
  readonly retryOptions?: PipelineRetryOptions;
}

/** The key type `az functionapp keys set --key-type functionKeys` writes. */
const keyType = 'functionKeys';

/** A stable Microsoft.Web API version that serves host keys. */
const apiVersion = '2024-04-01';

/**
 * Host keys through the App Service management API (`PUT`/`DELETE`
 * `.../sites/{app}/host/default/functionKeys/{name}`), as the signed-in operator.
 *
 * Sent as plain requests rather than through the App Service SDK: the API takes the key only
 * wrapped in `properties` and answers 400 ("Properties object is not present in the request
 * body") to the flat `{ name, value }` its published definition, and so every generated SDK,
 * sends (github.com/Azure/azure-rest-api-specs/issues/14557 and /29701).
 */
export function armHostKeys(target: FunctionAppTarget, credential: TokenCredential, options: ManagementClientOptions = {}): HostKeys {
  const endpoint = options.endpoint ?? 'https://management.azure.com';
  const httpClient = options.httpClient ?? createDefaultHttpClient();
  const pipeline = createPipelineFromOptions({ ...(options.retryOptions ? { retryOptions: options.retryOptions } : {}) });
  pipeline.addPolicy(bearerTokenAuthenticationPolicy({ credential, scopes: `${new URL(endpoint).origin}/.default` }));

  const send = async (method: 'PUT' | 'DELETE', name: string, body?: unknown) => {
    const e = encodeURIComponent;
    const site = `subscriptions/${e(target.subscriptionId)}/resourceGroups/${e(target.resourceGroup)}/providers/Microsoft.Web/sites/${e(target.functionApp)}`;
    const request = createPipelineRequest({
      url: `${endpoint.replace(/\/+$/, '')}/${site}/host/default/${keyType}/${e(name)}?api-version=${apiVersion}`,
      method,
      headers: createHttpHeaders(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return pipeline.sendRequest(httpClient, request);
  };

  return {
    async set(name, value) {
      const response = await send('PUT', name, { properties: { name, value } });
      if (response.status !== 200 && response.status !== 201) throw managementError('set', name, response.status, response.bodyAsText);
    },
    async remove(name) {
      const response = await send('DELETE', name);
      if (response.status !== 200 && response.status !== 204 && response.status !== 404)
        throw managementError('delete', name, response.status, response.bodyAsText);
    },
  };
}

/**
 * The management API's refusal, with its error code and message (ARM writes them as
 * `error.code`/`error.message`, App Service as `Code`/`Message`); the rest of its body is left out.
 */
function managementError(action: string, name: string, status: number, bodyText: string | null | undefined): Error {
  let said: unknown[] = [];
  try {
    const body = JSON.parse(bodyText ?? '') as { error?: { code?: unknown; message?: unknown }; Code?: unknown; Message?: unknown };
    said = [body.error?.code ?? body.Code, body.error?.message ?? body.Message];
  } catch {
    // Not JSON: the status says enough.
  }
  const text = said.filter((part): part is string => typeof part === 'string' && part !== '').join(': ');
  return new Error(
    `could not ${action} host key ${name}: the management API answered ${status}${text === '' ? '' : ` (${text.slice(0, 300)})`}`,
  );
}

/**
 * Name of the host key that carries one partner key: the partner and the key id, so a rotation's
 * keys stand side by side and `key revoke` deletes exactly the right one. Host key names take
 * letters, digits, `-` and `_`.
 */
export function hostKeyName(partnerId: string, keyId: string): string {
  return `${partnerId}-${keyId}`.replace(/[^A-Za-z0-9_-]/g, '_');
}
