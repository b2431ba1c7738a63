import { buildCloudEvent, type CloudEventInput } from '../../events/buildCloudEvent.js';
import type { WebhookDeliveryMessage } from '../../events/WebhookDeliveryMessage.js';
import type { Partners } from '../ports/Partners.js';
import type { WebhookEvents } from '../ports/WebhookEvents.js';
import type { WebhookRegistrations } from '../ports/WebhookRegistrations.js';

/** Where delivery messages go: the webhook delivery queue (JsonQueue in service). */
export interface DeliveryQueue {
  send(message: WebhookDeliveryMessage, visibilityDelaySeconds: number): Promise<void>;
}

export interface EventPublisherDeps {
  readonly registrations: WebhookRegistrations;
  /** A partner HQ deactivated gets no events (its key, and perhaps its endpoint, may be in other hands). */
  readonly partners: Pick<Partners, 'get'>;
  readonly events: WebhookEvents;
  readonly queue: DeliveryQueue;
  /** EVENT_TYPE_PREFIX. */
  readonly typePrefix: string;
  readonly clock: () => Date;
}

/** An event to publish: the envelope's fields but the prefix, which is configuration. */
export type PublishedEvent<T> = Omit<CloudEventInput<T>, 'typePrefix'>;

/**
 * Hands an event to delivery, never delivering it in the caller's own run: stores the exact body,
 * then queues one delivery message. Only partners whose endpoint subscribes to the event's type
 * get it, none while their endpoint is disabled (it answered 410 Gone), and none while HQ has
 * deactivated the partner; the message names the registration's generation, so the event is never
 * sent to an endpoint the partner registers after removing this one. Publishing the same event id again (a run repeated after a crash)
 * stores nothing new and queues another message for the same event: the partner may get it
 * twice, with one id.
 */
export class EventPublisher {
  constructor(private readonly deps: EventPublisherDeps) {}

  async publish<T>(
    partnerId: string,
    input: PublishedEvent<T>,
  ): Promise<'queued' | 'not-subscribed' | 'endpoint-disabled' | 'partner-inactive'> {
    const registration = await this.deps.registrations.get(partnerId);
    if (!registration?.eventTypes.includes(input.type)) return 'not-subscribed';
    if (registration.disabledAt !== undefined) return 'endpoint-disabled';
    // Read only for a subscriber: most partners have no endpoint, and every reconciliation publishes.
    if ((await this.deps.partners.get(partnerId))?.status === 'INACTIVE') return 'partner-inactive';
    const event = buildCloudEvent({ ...input, typePrefix: this.deps.typePrefix });
    const createdAt = this.deps.clock().toISOString();
    const stored = { partnerId, eventId: event.id, eventType: input.type, createdAt, body: JSON.stringify(event) };
    let firstCreatedAt = createdAt;
    if ((await this.deps.events.add(stored)) === 'exists') {
      // The retry window stays the first publication's.
      firstCreatedAt = (await this.deps.events.get(partnerId, event.id))?.createdAt ?? createdAt;
    }
    const { generation } = registration;
    await this.deps.queue.send(
      { partnerId, eventId: event.id, eventType: input.type, generation, createdAt: firstCreatedAt, attempts: 0 },
      0,
    );
    return 'queued';
  }
}
