import type { HttpRequest } from '@azure/functions';
import type { AppServices, Partner } from '../services/AppServices.js';

export interface AnonymousEndpointInput {
  readonly request: HttpRequest;
  readonly services: AppServices;
}

export interface EndpointInput extends AnonymousEndpointInput {
  /** The caller, resolved from its key before the endpoint runs. */
  readonly partner: Partner;
}

export interface EndpointResult {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Record<string, string>;
  /** For the access log line. */
  readonly batchId?: string;
}

/** What an HTTP function does once the adapter has authenticated the caller. */
export type Endpoint = (input: EndpointInput) => Promise<EndpointResult>;

/** An endpoint anyone may call (health): it never sees a partner. */
export type AnonymousEndpoint = (input: AnonymousEndpointInput) => Promise<EndpointResult>;
