import type { HttpRequest } from '@azure/functions';
import type { AppServices, Partner } from '../services/AppServices.js';

export interface EndpointInput {
  readonly request: HttpRequest;
  readonly services: AppServices;
  /** The caller, resolved from its key (absent only on anonymous endpoints). */
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
