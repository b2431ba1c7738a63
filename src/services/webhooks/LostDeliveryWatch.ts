import type { DeliveryPolicy } from '../../events/DeliveryPolicy.js';
import type { Telemetry } from '../../observability/Telemetry.js';
import type { Clock } from '../ports/Clock.js';
import type { WebhookDeadLetters } from '../ports/WebhookDeadLetters.js';
import type { WebhookEvents } from '../ports/WebhookEvents.js';
import type { WebhookRegistrations } from '../ports/WebhookRegistrations.js';

/**
 * An event's delivery messages may be handled up to this long after its retries end (a retry
 * delay, a busy endpoint's wait); one still stored later has no message left.
 */
const messageGoneAfterMs = 3 * 60 * 60 * 1000;

/** Written as the dead letter's last error: no attempt failed, the delivery message was lost. */
const lostErrorClass = 'DELIVERY_LOST';

export interface LostDeliveryWatchDeps {
  readonly events: Pick<WebhookEvents, 'listCreatedBefore' | 'remove'>;
  readonly deadLetters: Pick<WebhookDeadLetters, 'get' | 'add' | 'listIds'>;
  readonly registrations: Pick<WebhookRegistrations, 'get'>;
  readonly policy: Pick<DeliveryPolicy, 'maxAgeSeconds'>;
  readonly clock: Clock;
}

/**
 * Dead-letters the events whose delivery message is gone. An event is stored until it is delivered,
 * dropped or given up, and only a delivery message moves it on; a message that expired after 7
 * days in the poison queue, or was deleted or cleared with its queue, leaves the event stored with
 * nothing to deliver it and nothing to tell HQ. Well past its retries such an event is given up as
 * a delivery would give it up: a dead letter HQ lists, alerted on, that `webhook resend` sends.
 * An event no endpoint takes any more is dropped, as its delivery would drop it.
 */
export class LostDeliveryWatch {
  constructor(private readonly deps: LostDeliveryWatchDeps) {}

  async run(telemetry: Telemetry): Promise<{ deadLettered: number; dropped: number }> {
    const now = this.deps.clock();
    const before = new Date(now.getTime() - this.deps.policy.maxAgeSeconds * 1000 - messageGoneAfterMs).toISOString();
    let deadLettered = 0;
    let dropped = 0;
    // Given-up events stay stored until HQ resends or dismisses them, so most old events have a dead
    // letter: their ids are read in one listing rather than one point read each. An event given up
    // after the listing is read again before anything is written for it.
    const withDeadLetter = new Set<string>();
    for await (const { partnerId, eventId } of this.deps.deadLetters.listIds()) withDeadLetter.add(idOf(partnerId, eventId));
    // A partner's lost events come together: its registration is read once per run.
    const registrations = new Map<string, ReturnType<WebhookRegistrations['get']>>();
    for await (const event of this.deps.events.listCreatedBefore(before)) {
      const { partnerId, eventId, eventType } = event;
      if (withDeadLetter.has(idOf(partnerId, eventId))) continue;
      if (await this.deps.deadLetters.get(partnerId, eventId)) continue;
      let read = registrations.get(partnerId);
      if (read === undefined) {
        read = this.deps.registrations.get(partnerId);
        registrations.set(partnerId, read);
      }
      const registration = await read;
      if (!registration?.eventTypes.includes(eventType) || registration.disabledAt !== undefined) {
        await this.deps.events.remove(partnerId, eventId);
        dropped += 1;
        continue;
      }
      telemetry.metric('webhook_dead_letter', 1, { partner: partnerId, event: eventId, type: eventType, error: lostErrorClass });
      await this.deps.deadLetters.add({
        partnerId,
        eventId,
        eventType,
        targetOrigin: new URL(registration.url).origin,
        attempts: 0,
        lastErrorClass: lostErrorClass,
        createdAt: event.createdAt,
        deadLetteredAt: now.toISOString(),
      });
      deadLettered += 1;
    }
    return { deadLettered, dropped };
  }
}

function idOf(partnerId: string, eventId: string): string {
  return JSON.stringify([partnerId, eventId]);
}
