/**
 * What storage answered when a request failed after the SDK's own retries.
 * - `unavailable`: storage did not answer, was busy or timed out, refused our credentials, or
 *   other writers kept winning the same row; the same request may succeed later (the edge answers
 *   503 with Retry-After).
 * - `invalid`: storage refused what was sent (400, 413: a value, row or transaction too large, a
 *   key it does not take); the same content will always be refused. A push meeting this ends
 *   FAILED.
 * - `refused`: any other answer (404 of a table that should exist, …): nothing a retry of the
 *   request changes, and nothing wrong with its content either.
 */
export type StorageFailureKind = 'unavailable' | 'invalid' | 'refused';

const kindWords: Readonly<Record<StorageFailureKind, string>> = {
  unavailable: 'storage unavailable',
  invalid: 'storage refused the content',
  refused: 'storage refused',
};

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
    super(`${kindWords[kind]}: ${statusCode ?? 'no answer'}${code ? ` ${code}` : ''}`, options);
  }
}
