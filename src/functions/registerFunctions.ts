import { app } from '@azure/functions';
import type { AppServices } from '../services/AppServices.js';
import type { FunctionDefinition } from './FunctionDefinition.js';

/** Registers the function table with the Functions programming model, handlers bound to `services`. */
export function registerFunctions(table: readonly FunctionDefinition[], services: AppServices): void {
  for (const fn of table) {
    if (fn.trigger === 'http') {
      app.http(fn.name, {
        route: fn.route,
        methods: [...fn.methods],
        authLevel: fn.authLevel,
        handler: fn.createHandler(services),
      });
    } else {
      app.storageQueue(fn.name, {
        queueName: fn.queueName,
        connection: fn.connection,
        handler: fn.createHandler(services),
      });
    }
  }
}
