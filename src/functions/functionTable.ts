import { settingNames } from '../config/settingNames.js';
import { createHttpHandler } from '../http/createHttpHandler.js';
import type { AnonymousEndpoint, Endpoint } from '../http/Endpoint.js';
import { getDocsAsset, getDocsPage } from '../http/endpoints/getDocs.js';
import { getHealth } from '../http/endpoints/getHealth.js';
import { getOpenApi } from '../http/endpoints/getOpenApi.js';
import { getMapping } from '../http/endpoints/getMapping.js';
import { getReconciliation } from '../http/endpoints/getReconciliation.js';
import { getReferenceTypes } from '../http/endpoints/getReferenceTypes.js';
import { pushEndpoint } from '../http/endpoints/pushEndpoint.js';
import { createQueueHandler } from '../queue/createQueueHandler.js';
import { isBatchSweepMessage, isReconcileMessage } from '../queue/messageGuards.js';
import { queueNames } from '../storage/storageNames.js';
import type { FunctionDefinition, HttpFunctionDefinition, HttpMethod } from './FunctionDefinition.js';

/** An endpoint behind a partner key (auth level `function`). */
function http(name: string, method: HttpMethod, route: string, endpoint: Endpoint): HttpFunctionDefinition {
  return {
    name,
    trigger: 'http',
    route,
    methods: [method],
    authLevel: 'function',
    createHandler: (services) => createHttpHandler(services, { route, authenticate: true, endpoint }),
  };
}

/** An endpoint anyone may call (auth level `anonymous`). */
function anonymousHttp(name: string, method: HttpMethod, route: string, endpoint: AnonymousEndpoint): HttpFunctionDefinition {
  return {
    name,
    trigger: 'http',
    route,
    methods: [method],
    authLevel: 'anonymous',
    createHandler: (services) => createHttpHandler(services, { route, authenticate: false, endpoint }),
  };
}

/**
 * Every function of the service, declared once (DESIGN §2). The Azure entry point registers this
 * table with `app.http` / `app.storageQueue`; the local host serves the same registrations.
 */
export const functionTable: readonly FunctionDefinition[] = [
  http('pushTradeRecords', 'POST', 'trade-records', pushEndpoint('tradeRecords', { rateLimited: true })),
  http('pushDailyClose', 'POST', 'daily-close', pushEndpoint('dailyClose', { rateLimited: false })),
  http('getReconciliation', 'GET', 'daily-close/{store_id}/{business_date}', getReconciliation),
  http('putStores', 'PUT', 'stores', pushEndpoint('stores', { rateLimited: false })),
  http('putProducts', 'PUT', 'products', pushEndpoint('products', { rateLimited: false })),
  http('putMapping', 'PUT', 'mappings/transaction-types', pushEndpoint('mappings', { rateLimited: false })),
  http('getMapping', 'GET', 'mappings/transaction-types', getMapping),
  http('getReferenceTransactionTypes', 'GET', 'reference/transaction-types', getReferenceTypes),
  anonymousHttp('health', 'GET', 'health', getHealth),
  anonymousHttp(
    'partnerOpenApi',
    'GET',
    'openapi.json',
    getOpenApi(() => functionTable),
  ),
  anonymousHttp('partnerDocs', 'GET', 'docs', getDocsPage),
  anonymousHttp('partnerDocsAsset', 'GET', 'docs/{asset}', getDocsAsset),
  {
    name: 'reconcileDay',
    trigger: 'storageQueue',
    queueName: queueNames.reconcile,
    connection: settingNames.storage,
    createHandler: (services) =>
      createQueueHandler('reconcileDay', isReconcileMessage, (message) => services.reconciler.reconcile(message)),
  },
  {
    name: 'sweepBatch',
    trigger: 'storageQueue',
    queueName: queueNames.batchSweep,
    connection: settingNames.storage,
    createHandler: (services) => createQueueHandler('sweepBatch', isBatchSweepMessage, (message) => services.sweeper.sweep(message)),
  },
];
