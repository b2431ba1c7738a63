import type { ErrorCode } from '../errors/errorCatalogue.js';
import type { SchemaRef } from './SchemaRef.js';

/** A path parameter of an operation. */
export interface ParameterDoc {
  readonly name: string;
  readonly description: string;
  readonly schema: SchemaRef;
}

/** A non-error response of an operation. */
export interface SuccessDoc {
  readonly status: number;
  readonly description: string;
  /** The JSON body; none for a bodiless answer such as 204. */
  readonly schema?: SchemaRef;
  /** Headers sent with this response, e.g. Retry-After on a 503 of /health. */
  readonly retryAfter?: boolean;
}

/**
 * What the OpenAPI document says about one HTTP function of the function table beyond what the
 * table itself holds (route, method, auth level). Keyed by the function's name.
 */
export interface OperationDoc {
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly parameters?: readonly ParameterDoc[];
  /**
   * The JSON body the operation takes; `limitedArray` names the array BATCH_TOO_LARGE counts, and
   * `storeDayLimited` says the store-day it names is limited too (STORE_DAY_TOO_LARGE).
   */
  readonly requestBody?: { readonly schema: SchemaRef; readonly limitedArray?: string; readonly storeDayLimited?: boolean };
  readonly responses: readonly SuccessDoc[];
  /** Every error code of the catalogue the service (or the host in front of it) can answer with. */
  readonly errors: readonly ErrorCode[];
}
