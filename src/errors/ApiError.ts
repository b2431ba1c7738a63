import { errorCatalogue, type ErrorCode } from './errorCatalogue.js';
import type { ProblemDetail } from './ProblemDetail.js';

/** Largest number of details one error body carries; the rest are summarised in the message. */
export const maxErrorDetails = 50;

/**
 * An outcome the partner must see as an error response. Thrown by services, turned into a
 * response in one place (`src/http/toErrorResponse.ts`). Messages never quote request values.
 */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string = errorCatalogue[code].message,
    readonly details: readonly ProblemDetail[] = [],
    /** Seconds for a Retry-After header (429, 503). */
    readonly retryAfterSeconds?: number,
    /** What caused it, for the log line of a 5xx (never shown to the caller). */
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ApiError';
    this.status = errorCatalogue[code].status;
  }
}
