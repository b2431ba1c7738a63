import type { DeadLetter } from '../../storage/WebhookDeadLetterRepository.js';

/** Deliveries given up, as HQ lists them. */
export interface WebhookDeadLetters {
  /** Records the dead letter; the same event again (a retried message) replaces it. */
  add(deadLetter: DeadLetter): Promise<void>;
  get(partnerId: string, eventId: string): Promise<DeadLetter | undefined>;
  /** Every dead letter's partner and event id (nothing else is read), in no particular order. */
  listIds(): AsyncIterable<{ readonly partnerId: string; readonly eventId: string }>;
  /** Newest first; one partner's or everyone's, at most `limit`. */
  list(options: { partnerId?: string; limit: number }): Promise<DeadLetter[]>;
  /** False when there was none. */
  remove(partnerId: string, eventId: string): Promise<boolean>;
  /**
   * Removes the dead letter and returns it, when this call is the one that removed it: of two
   * callers side by side, one gets it and the other undefined (as when there is none).
   */
  take(partnerId: string, eventId: string): Promise<DeadLetter | undefined>;
}
