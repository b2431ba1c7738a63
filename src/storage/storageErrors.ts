import { ApiError } from '../errors/ApiError.js';

/** HTTP status of a storage SDK error, if it carries one. */
function storageStatus(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

export const isNotFound = (error: unknown): boolean => storageStatus(error) === 404;
/** Entity/blob already exists (create, `If-None-Match: *`). */
export const isConflict = (error: unknown): boolean => storageStatus(error) === 409;
/** ETag no longer current (`If-Match`), or a conditional blob put lost. */
export const isPreconditionFailed = (error: unknown): boolean => storageStatus(error) === 412;

/**
 * Storage failures that survive the SDK's own retries reach the partner as a retryable 503:
 * the push was not committed and the same batch_id may be sent again.
 */
export function toServiceUnavailable(error: unknown): ApiError | undefined {
  if (error instanceof ApiError) return undefined;
  const status = storageStatus(error);
  const code = (error as { code?: unknown } | null)?.code;
  const transient =
    (status !== undefined && (status >= 500 || status === 408 || status === 429)) ||
    code === 'REQUEST_SEND_ERROR' ||
    code === 'ECONNRESET' ||
    code === 'ECONNREFUSED' ||
    code === 'ETIMEDOUT' ||
    // A storage call that outlived its deadline (storageDeadlinePolicy) was aborted.
    (error as { name?: unknown } | null)?.name === 'AbortError' ||
    (error as { name?: unknown } | null)?.name === 'TimeoutError';
  return transient ? new ApiError('SERVICE_UNAVAILABLE', undefined, [], 5) : undefined;
}
