import type { HttpResponseInit } from '@azure/functions';
import { ApiError, maxErrorDetails } from '../errors/ApiError.js';
import { StorageError } from '../errors/StorageError.js';
import { ClientAbortError } from './ClientAbortError.js';

/** Error response body (DESIGN §6). Never carries stack traces or values from the request. */
export interface ErrorBody {
  readonly error: {
    readonly code: string;
    readonly message: string;
    /** The response's x-request-id: HQ finds the request's log lines with it. */
    readonly request_id: string;
    readonly details?: readonly { path: string; message: string }[];
  };
}

/** How the adapter logs an error response: at error level only what nobody expected. */
export type ErrorSeverity = 'expected' | 'transient' | 'client-abort' | 'unexpected';

/** Seconds a partner waits before retrying after a 503 caused by storage. */
const storageRetryAfterSeconds = 5;

/**
 * The one place that turns a thrown error into a response. Typed errors keep their code; storage
 * that did not answer (after the SDK's retries) is a retryable 503; anything else is a 500 that
 * says not to retry unchanged, with its cause in the log and not in the answer.
 */
export function toErrorResponse(error: unknown, requestId: string): { response: HttpResponseInit; severity: ErrorSeverity } {
  let apiError: ApiError;
  let severity: ErrorSeverity;
  if (error instanceof ApiError) {
    apiError = error;
    // A 5xx of the catalogue (a failed batch) is for HQ to look into; 503 is just storage being busy.
    severity = error.status >= 500 && error.code !== 'SERVICE_UNAVAILABLE' ? 'unexpected' : 'expected';
  } else if (error instanceof ClientAbortError) {
    apiError = new ApiError('CLIENT_CLOSED_REQUEST');
    severity = 'client-abort';
  } else if (error instanceof StorageError && error.kind === 'unavailable') {
    apiError = new ApiError('SERVICE_UNAVAILABLE', undefined, [], storageRetryAfterSeconds);
    severity = 'transient';
  } else {
    apiError = new ApiError('INTERNAL_ERROR');
    severity = 'unexpected';
  }
  const details = apiError.details.slice(0, maxErrorDetails);
  const omitted = apiError.details.length - details.length;
  const message = omitted > 0 ? `${apiError.message} (${omitted} more problem(s) not listed)` : apiError.message;
  const body: ErrorBody = {
    error: { code: apiError.code, message, request_id: requestId, ...(details.length > 0 ? { details } : {}) },
  };
  const headers: Record<string, string> = {};
  if (apiError.retryAfterSeconds !== undefined) headers['Retry-After'] = String(apiError.retryAfterSeconds);
  return { response: { status: apiError.status, jsonBody: body, headers }, severity };
}
