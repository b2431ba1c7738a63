/**
 * What storage answered when a request failed after the SDK's own retries.
 * - `unavailable`: storage did not answer, was busy or timed out, or refused our credentials;
 *   the same request may succeed later (the edge answers 503 with Retry-After).
 * - `refused`: storage answered and will give the same answer again (the request itself is
 *   not acceptable, e.g. an entity too large); retrying cannot help.
 */
export type StorageFailureKind = 'unavailable' | 'refused';

/**
 * Every failure of a storage request leaves the storage layer as this error (see
 * `src/storage/translateStorageErrors.ts`). It keeps the HTTP status and the storage error code,
 * so repositories can still tell an expected outcome (404, 409, 412) from a failure.
 * The message names the operation's outcome only, never entity contents.
 */
export class StorageError extends Error {
  override readonly name = 'StorageError';

  constructor(
    readonly kind: StorageFailureKind,
    /** HTTP status storage answered with; undefined when no answer came. */
    readonly statusCode: number | undefined,
    /** Storage's error code (e.g. `EntityTooLarge`, `ServerBusy`) or the network error code. */
    readonly code: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(`storage ${kind}: ${statusCode ?? 'no answer'}${code ? ` ${code}` : ''}`, options);
  }
}
