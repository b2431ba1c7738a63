import type { HttpRequest } from '@azure/functions';
import type { HqServices } from '../HqServices.js';
import type { Operator } from '../services/OperatorAuthenticator.js';
import type { BodyName, BodyTypes } from './hqSchemas.js';

export interface HqEndpointInput {
  readonly request: HttpRequest;
  readonly hq: HqServices;
  /** The caller, resolved from its operator key (and its role checked) before the endpoint runs. */
  readonly operator: Operator;
  /**
   * The action's body, checked (`readHqBody`), and then the caller's key and role checked again: a
   * body may take minutes to arrive, and an operator key revoked meanwhile must change nothing.
   * The only way an endpoint reads its body.
   */
  readonly readBody: <N extends BodyName>(name: N) => Promise<BodyTypes[N]>;
}

export interface HqEndpointResult {
  readonly status: number;
  readonly body: unknown;
}

/** What an HQ API function does once the adapter has authenticated and authorised the caller. */
export type HqEndpoint = (input: HqEndpointInput) => Promise<HqEndpointResult>;

/** `read`: any operator; `admin`: operators with the admin role only. */
export type HqAccess = 'read' | 'admin';
