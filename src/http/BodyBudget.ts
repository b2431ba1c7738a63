import { ApiError } from '../errors/ApiError.js';

/** Seconds a caller refused for memory is told to wait before retrying. */
const retryAfterSeconds = 2;

/** What reading one request's body draws on: bytes taken as they arrive, given back once done. */
export interface BodyAllowance {
  /** Takes `bytes` more, or throws 503 SERVICE_UNAVAILABLE when they do not fit. */
  take(bytes: number): void;
  give(bytes: number): void;
}

/**
 * The most of an instance's body budget one partner's requests may hold at once: half of it, so
 * that one partner's large or slowly sent bodies (their declared length is held from the start)
 * never leave the others without room; but never less than one body of the largest size, so that a
 * partner alone can always send one.
 */
export function partnerShareOf(maxBytes: number, largestBodyBytes: number): number {
  return Math.max(Math.floor(maxBytes / 2), Math.min(largestBodyBytes, maxBytes));
}

/**
 * Bytes of request bodies this instance holds at once (read, parsed or being stored). A body that
 * would take the total over the bound, or its partner's requests over their share, is refused with
 * a retryable 503 instead of growing the process without limit; the platform meanwhile adds
 * instances.
 */
export class BodyBudget implements BodyAllowance {
  #inUse = 0;
  readonly #byPartner = new Map<string, number>();

  constructor(
    readonly maxBytes: number,
    readonly partnerShareBytes: number = maxBytes,
  ) {}

  get inUse(): number {
    return this.#inUse;
  }

  /** Bytes the partner's requests hold now. */
  heldBy(partnerId: string): number {
    return this.#byPartner.get(partnerId) ?? 0;
  }

  take(bytes: number): void {
    if (this.#inUse + bytes > this.maxBytes) throw busy('The service is busy with other large requests');
    this.#inUse += bytes;
  }

  give(bytes: number): void {
    this.#inUse = Math.max(0, this.#inUse - bytes);
  }

  /** The budget as one partner's requests draw on it: bounded by the partner's share as well as the whole. */
  forPartner(partnerId: string): BodyAllowance {
    return {
      take: (bytes) => {
        const held = this.heldBy(partnerId);
        if (held + bytes > this.partnerShareBytes) throw busy("Your requests in progress hold your share of the service's memory");
        this.take(bytes);
        this.#byPartner.set(partnerId, held + bytes);
      },
      give: (bytes) => {
        this.give(bytes);
        const left = this.heldBy(partnerId) - bytes;
        if (left > 0) this.#byPartner.set(partnerId, left);
        else this.#byPartner.delete(partnerId);
      },
    };
  }
}

/** Worded for every body read through the budget: a push (same batch_id) or a webhook registration. */
function busy(why: string): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', `${why}; send the same request again after Retry-After.`, [], retryAfterSeconds);
}
