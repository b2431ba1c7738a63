import type { WebhookEndpoint, WebhookRegistration } from '../../events/WebhookRegistration.js';
import type { WebhookSecret } from '../../events/WebhookSecret.js';

/** One webhook endpoint per partner, with the secrets that sign its deliveries. */
export interface WebhookRegistrations {
  get(partnerId: string): Promise<WebhookRegistration | undefined>;
  /** Registers a first endpoint with its secret and a new generation; false when the partner already has one. */
  create(partnerId: string, endpoint: WebhookEndpoint, secret: WebhookSecret, now: Date): Promise<boolean>;
  /**
   * Replaces URL and event types, keeping the secrets and the generation, and enables a disabled
   * endpoint, which starts a new generation; false when the partner has no endpoint.
   */
  replaceEndpoint(partnerId: string, endpoint: WebhookEndpoint, now: Date): Promise<boolean>;
  /**
   * Disables the endpoint after it answered 410 Gone, when it is still the registration the attempt
   * was made with (the same `updatedAt`): one registered anew or rotated since is left as it is, and
   * the next event's attempt decides. False when nothing was disabled.
   */
  disable(partnerId: string, attemptedUpdatedAt: string, now: Date): Promise<boolean>;
  /**
   * Makes `next` the signing secret; the current one keeps signing until `now + overlapSeconds`.
   * Only the latest two ever sign, concurrent rotations included. False when the partner has no endpoint.
   */
  rotateSecret(partnerId: string, next: WebhookSecret, now: Date, overlapSeconds: number): Promise<boolean>;
  /** Removes the endpoint; false when there was none. */
  remove(partnerId: string): Promise<boolean>;
  /** Every partner's endpoint, by partner id. */
  list(): Promise<WebhookRegistration[]>;
}
