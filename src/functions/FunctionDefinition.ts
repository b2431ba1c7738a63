import type { HttpHandler, StorageQueueHandler, TimerHandler } from '@azure/functions';
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

/** A timer-triggered function. In Azure it runs on one instance at a time. */
export interface TimerFunctionDefinition {
  readonly name: string;
  readonly trigger: 'timer';
  /** NCRONTAB, six fields with seconds, UTC: `0 *\/5 * * * *` is every five minutes. */
  readonly schedule: string;
  readonly createHandler: (services: AppServices) => TimerHandler;
}

export type FunctionDefinition = HttpFunctionDefinition | QueueFunctionDefinition | TimerFunctionDefinition;
