import type { EventType } from './eventTypes.js';
import type { WebhookSecret } from './WebhookSecret.js';

/** What a partner registers: one endpoint and the events it wants there. */
export interface WebhookEndpoint {
  readonly url: string;
  readonly eventTypes: readonly EventType[];
}

/** A partner's registered endpoint with its signing secrets. */
export interface WebhookRegistration extends WebhookEndpoint {
  readonly partnerId: string;
  readonly secret: WebhookSecret;
  /** After a rotation, the old secret still signs until `expiresAt`, so the partner can switch without losing events. */
  readonly previousSecret?: { readonly secret: WebhookSecret; readonly expiresAt: string };
  readonly createdAt: string;
  readonly updatedAt: string;
  /**
   * Which registration this is: new when the endpoint is registered after a removal, or again
   * after a 410 Gone, and kept by a replace or a rotation. Delivery messages carry the one their
   * event was published for, so an event meant for an earlier registration, one the partner
   * removed or that asked for no more, is never sent to the endpoint registered since.
   */
  readonly generation: string;
  /**
   * When the endpoint answered 410 Gone: it said it wants no more deliveries (Standard Webhooks),
   * so none is sent until the partner registers it again.
   */
  readonly disabledAt?: string;
}

/** How long a rotated-out secret keeps signing alongside the new one. */
export const secretOverlapSeconds = 24 * 60 * 60;

/** The secrets an attempt at `now` is signed with: the current one first, the previous one while it overlaps. */
export function signingSecrets(registration: WebhookRegistration, now: Date): WebhookSecret[] {
  const previous = registration.previousSecret;
  return previous && Date.parse(previous.expiresAt) > now.getTime() ? [registration.secret, previous.secret] : [registration.secret];
}
