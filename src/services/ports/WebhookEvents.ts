import type { StoredEvent } from '../../storage/WebhookEventStore.js';

/** Events not yet delivered, by partner and event id: the exact body every attempt signs. */
export interface WebhookEvents {
  /** Stores the event; 'exists' when it already is (the same id is the same event). Throws EventTooLargeError over the limit, before writing. */
  add(event: StoredEvent): Promise<'created' | 'exists'>;
  get(partnerId: string, eventId: string): Promise<StoredEvent | undefined>;
  remove(partnerId: string, eventId: string): Promise<void>;
  /**
   * Sets the event's `createdAt` to `at`, the start of a new window of delivery attempts (HQ sent it
   * again); false when the event is gone.
   */
  restartWindow(partnerId: string, eventId: string, at: string): Promise<boolean>;
  /**
   * Every partner's events created (or their window restarted) before `before` (an ISO instant),
   * without their bodies, in no particular order.
   */
  listCreatedBefore(before: string): AsyncIterable<Omit<StoredEvent, 'body'>>;
}
