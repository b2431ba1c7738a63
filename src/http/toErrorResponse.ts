import type { HttpResponseInit } from '@azure/functions';
import { ApiError, maxErrorDetails } from '../errors/ApiError.js';
import { toServiceUnavailable } from '../storage/storageErrors.js';

/** Error response body (DESIGN §6). Never carries stack traces or values from the request. */
export interface ErrorBody {
  readonly error: {
    readonly code: string;
    readonly message: string;
    readonly details?: readonly { path: string; message: string }[];
  };
}

/**
 * The one place that turns a thrown error into a response. Typed errors keep their code; storage
 * failures that outlived the SDK's retries become a retryable 503; anything else is a 500 whose
 * cause goes to the log, not to the caller.
 */
export function toErrorResponse(error: unknown): { response: HttpResponseInit; unexpected: boolean } {
  const known = error instanceof ApiError ? error : toServiceUnavailable(error);
  const apiError = known ?? new ApiError('INTERNAL_ERROR');
  const details = apiError.details.slice(0, maxErrorDetails);
  const omitted = apiError.details.length - details.length;
  const message = omitted > 0 ? `${apiError.message} (${omitted} more problem(s) not listed)` : apiError.message;
  const body: ErrorBody = { error: { code: apiError.code, message, ...(details.length > 0 ? { details } : {}) } };
  const headers: Record<string, string> = {};
  if (apiError.retryAfterSeconds !== undefined) headers['Retry-After'] = String(apiError.retryAfterSeconds);
  return { response: { status: apiError.status, jsonBody: body, headers }, unexpected: known === undefined };
}
