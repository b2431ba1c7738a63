import type { WebhookDeadLetters } from '../ports/WebhookDeadLetters.js';
import type { WebhookEvents } from '../ports/WebhookEvents.js';
import type { WebhookRegistrations } from '../ports/WebhookRegistrations.js';
import type { DeliveryQueue } from './EventPublisher.js';

export type ResendOutcome = 'queued' | 'no-dead-letter' | 'body-gone' | 'no-endpoint' | 'endpoint-disabled' | 'not-subscribed';

/**
 * What HQ does with a delivery that was given up (the HQ tool's `webhook resend` and `webhook
 * dismiss`): send the stored event again, with a new 24-hour window of attempts, or drop it.
 */
export class DeadLetterActions {
  constructor(
    private readonly deps: {
      readonly deadLetters: WebhookDeadLetters;
      readonly events: WebhookEvents;
      readonly registrations: Pick<WebhookRegistrations, 'get'>;
      readonly queue: DeliveryQueue;
      readonly clock: () => Date;
    },
  ) {}

  /**
   * Queues the event again, the same id and body, as a first attempt to the endpoint registered
   * now (its generation), with a new window of attempts. Delivery checks the endpoint and the
   * partner again: a change meanwhile, or a deactivated partner, drops it. Refused while the
   * partner has no endpoint, it is disabled (it answered 410 Gone) or it does not take the event's
   * type: delivery would drop the event and its body, and the dead letter is what keeps it for a
   * later resend.
   *
   * The dead letter is taken before the message is sent: of two operators resending one event side
   * by side, one queues it and the other is told there is no dead letter; and a delivery that gives
   * the event up again at once writes a dead letter this call no longer removes. A message that
   * cannot be sent puts the dead letter back. After a crash in between, the event has neither, and
   * `LostDeliveryWatch` gives it up again once its window is over.
   */
  async resend(partnerId: string, eventId: string): Promise<ResendOutcome> {
    if (!(await this.deps.deadLetters.get(partnerId, eventId))) return 'no-dead-letter';
    const registration = await this.deps.registrations.get(partnerId);
    if (registration === undefined) return 'no-endpoint';
    if (registration.disabledAt !== undefined) return 'endpoint-disabled';
    const event = await this.deps.events.get(partnerId, eventId);
    if (!event) return 'body-gone';
    if (!registration.eventTypes.includes(event.eventType)) return 'not-subscribed';
    const taken = await this.deps.deadLetters.take(partnerId, eventId);
    if (!taken) return 'no-dead-letter';
    const createdAt = this.deps.clock().toISOString();
    const { generation } = registration;
    try {
      // The watch for lost messages measures the window from here, not from the event's first one.
      if (!(await this.deps.events.restartWindow(partnerId, eventId, createdAt))) return 'body-gone';
      await this.deps.queue.send({ partnerId, eventId, eventType: event.eventType, generation, createdAt, attempts: 0 }, 0);
    } catch (error) {
      await this.deps.deadLetters.add(taken);
      throw error;
    }
    return 'queued';
  }

  /** Drops the event and its dead letter; false when there was no dead letter. */
  async dismiss(partnerId: string, eventId: string): Promise<boolean> {
    await this.deps.events.remove(partnerId, eventId);
    return this.deps.deadLetters.remove(partnerId, eventId);
  }
}
