import { app } from '@azure/functions';
import type { AppServices } from '../services/AppServices.js';
import type { FunctionDefinition } from './FunctionDefinition.js';

/** Marks, for the whole process, that the library's setup was done (it may be done only once). */
const setupDone = Symbol.for('pos-ingestion-service.functions.setupDone');
const processState = globalThis as { [setupDone]?: boolean };

/**
 * Registers the function table with the Functions programming model, handlers bound to `services`.
 *
 * HTTP streams are on: the host then hands every request body to the worker as a stream. Without
 * them the host passes a body only when the request declares a Content-Length, so a chunked body
 * would reach the service empty; with them a body is read as it arrives and never held beyond the
 * service's own limit.
 */
export function registerFunctions(table: readonly FunctionDefinition[], services: AppServices): void {
  if (!processState[setupDone]) {
    app.setup({ enableHttpStream: true });
    processState[setupDone] = true;
  }
  for (const fn of table) {
    if (fn.trigger === 'http') {
      app.http(fn.name, {
        route: fn.route,
        methods: [...fn.methods],
        authLevel: fn.authLevel,
        handler: fn.createHandler(services),
      });
    } else if (fn.trigger === 'timer') {
      app.timer(fn.name, { schedule: fn.schedule, handler: fn.createHandler(services) });
    } else {
      app.storageQueue(fn.name, {
        queueName: fn.queueName,
        connection: fn.connection,
        handler: fn.createHandler(services),
      });
    }
  }
}
