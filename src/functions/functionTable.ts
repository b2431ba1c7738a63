import { settingNames } from '../config/settingNames.js';
import { createHttpHandler } from '../http/createHttpHandler.js';
import type { AnonymousEndpoint, Endpoint } from '../http/Endpoint.js';
import { getHealth } from '../http/endpoints/getHealth.js';
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
  {
    name: 'reconcileDay',
    trigger: 'storageQueue',
    queueName: queueNames.reconcile,
    connection: settingNames.storage,
    createHandler: (services) =>
      createQueueHandler('reconcileDay', isReconcileMessage, (message, log) => services.reconciler.reconcile(message, log)),
  },
  {
    name: 'sweepBatch',
    trigger: 'storageQueue',
    queueName: queueNames.batchSweep,
    connection: settingNames.storage,
    // The sweep message every push sends also stages the batch's report fragment once the batch is
    // committed: the conversion runs in the background without a message of its own.
    createHandler: (services) =>
      createQueueHandler('sweepBatch', isBatchSweepMessage, async (message, log) => {
        const outcome = await services.sweeper.sweep(message);
        const staged = await services.reportFragments.stage(message.partnerId, message.batchId);
        if (typeof staged === 'string') return `${outcome}, report fragment ${staged}`;
        log.warn(`${staged.code}: the report fragment of the batch was not staged (its day converts it instead): ${staged.message}`);
        return outcome;
      }),
  },
];
