import type { DeliveryPolicy } from './DeliveryPolicy.js';

export type RetryPlan = { readonly kind: 'retry'; readonly delaySeconds: number } | { readonly kind: 'dead-letter' };

export interface RetryInput {
  /** When the event was created: the retry window is measured from here. */
  readonly createdAt: Date;
  readonly now: Date;
  /** Failures so far (1 after the first failed attempt). */
  readonly failures: number;
  /** The receiver's Retry-After, honoured up to the longest delay of the schedule. */
  readonly retryAfterSeconds?: number | undefined;
  /** Uniform in [0, 1): the jitter's source, injected so that tests are exact. */
  readonly random: () => number;
}

/** The schedule's delay after the given number of failures: exponential, capped, jittered, ≥ 1 s. */
export function retryDelaySeconds(policy: DeliveryPolicy, failures: number, random: () => number): number {
  const base = Math.min(policy.firstRetrySeconds * 2 ** Math.max(failures - 1, 0), policy.maxRetrySeconds);
  const spread = 1 - policy.jitter + 2 * policy.jitter * random();
  return Math.max(1, Math.ceil(base * spread));
}

/**
 * What happens after a failed attempt: another attempt after a delay, or the dead-letter list
 * once the window since the event was created is over. The last retry is moved to the end of the
 * window rather than dropped, so every event gets its full 24 hours.
 */
export function planRetry(policy: DeliveryPolicy, input: RetryInput): RetryPlan {
  const deadline = input.createdAt.getTime() + policy.maxAgeSeconds * 1000;
  const left = Math.floor((deadline - input.now.getTime()) / 1000);
  if (left < 1) return { kind: 'dead-letter' };
  let delay = retryDelaySeconds(policy, input.failures, input.random);
  if (input.retryAfterSeconds !== undefined) delay = Math.max(delay, Math.min(input.retryAfterSeconds, policy.maxRetrySeconds));
  return { kind: 'retry', delaySeconds: Math.min(delay, left) };
}
