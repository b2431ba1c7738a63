import type { HttpHandler, StorageQueueHandler } from '@azure/functions';
import type { AppServices } from '../services/AppServices.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** An HTTP-triggered function: the metadata the host sees, and how to build its handler. */
export interface HttpFunctionDefinition {
  readonly name: string;
  readonly trigger: 'http';
  /** Full route (host.json sets no prefix), in Functions syntax: `pos/v1/daily-close/{store_id}/{business_date}`. */
  readonly route: string;
  readonly methods: readonly HttpMethod[];
  readonly authLevel: 'anonymous' | 'function';
  readonly createHandler: (services: AppServices) => HttpHandler;
}

/** A queue-triggered function. Messages are base64-encoded JSON (the trigger's default). */
export interface QueueFunctionDefinition {
  readonly name: string;
  readonly trigger: 'storageQueue';
  readonly queueName: string;
  /** Name of the connection setting (prefix of the identity-based settings). */
  readonly connection: string;
  readonly createHandler: (services: AppServices) => StorageQueueHandler;
}

export type FunctionDefinition = HttpFunctionDefinition | QueueFunctionDefinition;
