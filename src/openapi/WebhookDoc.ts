import type { SchemaRef } from './SchemaRef.js';

/**
 * What the OpenAPI document says about one event the service sends to a partner's endpoint (an
 * entry of its `webhooks`): the request the partner's receiver gets, and what its answers mean.
 */
export interface WebhookDoc {
  readonly summary: string;
  readonly description: string;
  /** The event, the body of the delivery. */
  readonly schema: SchemaRef;
  /** One event as the service builds it. */
  readonly example: unknown;
}
