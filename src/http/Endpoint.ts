import type { HttpRequest } from '@azure/functions';
import type { AppServices, Partner } from '../services/AppServices.js';

export interface AnonymousEndpointInput {
  readonly request: HttpRequest;
  readonly services: AppServices;
}

export interface EndpointInput extends AnonymousEndpointInput {
  /** The caller, resolved from its key before the endpoint runs. */
  readonly partner: Partner;
  /**
   * Resolves the caller's key again: an endpoint that reads a body calls it once the body has
   * arrived and before its first write. A body may take minutes to arrive, and HQ may revoke the key
   * or deactivate the partner meanwhile; the request must then write nothing (401 or 403, as a new
   * request would get).
   */
  readonly confirmCaller: () => Promise<void>;
  /**
   * Names the request's batch_id in its access-log line as soon as it is known (a batch_id the
   * schema would take only), so that a push refused or failed can be found by it too.
   */
  readonly noteBatchId: (batchId: string) => void;
}

export interface EndpointResult {
  readonly status: number;
  readonly body: unknown;
  /** Set for a body that is not JSON: `body` is then a string sent as is with this Content-Type. */
  readonly contentType?: string;
  readonly headers?: Record<string, string>;
  /** For the access log line. */
  readonly batchId?: string;
}

/** What an HTTP function does once the adapter has authenticated the caller. */
export type Endpoint = (input: EndpointInput) => Promise<EndpointResult>;

/** An endpoint anyone may call (health): it never sees a partner. */
export type AnonymousEndpoint = (input: AnonymousEndpointInput) => Promise<EndpointResult>;
