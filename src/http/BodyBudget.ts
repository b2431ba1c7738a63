import { ApiError } from '../errors/ApiError.js';

/** Seconds a caller refused for memory is told to wait before retrying. */
const retryAfterSeconds = 2;

/**
 * Bytes of request bodies this instance holds at once (read, parsed or being stored). A body that
 * would take the total over the bound is refused with a retryable 503 instead of growing the
 * process without limit; the platform meanwhile adds instances.
 */
export class BodyBudget {
  #inUse = 0;

  constructor(readonly maxBytes: number) {}

  get inUse(): number {
    return this.#inUse;
  }

  /** Takes `bytes` more, or throws 503 SERVICE_UNAVAILABLE when they do not fit. */
  take(bytes: number): void {
    if (this.#inUse + bytes > this.maxBytes) {
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        'The service is busy with other large requests; retry shortly with the same batch_id.',
        [],
        retryAfterSeconds,
      );
    }
    this.#inUse += bytes;
  }

  give(bytes: number): void {
    this.#inUse = Math.max(0, this.#inUse - bytes);
  }
}
