import { cloudEventContentType } from '../../events/CloudEvent.js';
import type { AttemptOutcome } from '../../events/DeliveryFailure.js';
import type { DeliveryPolicy } from '../../events/DeliveryPolicy.js';
import { planRetry, retryDelaySeconds } from '../../events/planRetry.js';
import { signWebhook } from '../../events/signWebhook.js';
import type { WebhookDeliveryMessage } from '../../events/WebhookDeliveryMessage.js';
import { signingSecrets, type WebhookRegistration } from '../../events/WebhookRegistration.js';
import { noTelemetry, type Telemetry } from '../../observability/Telemetry.js';
import type { WebhookRequest } from '../../outbound/WebhookSender.js';
import type { EndpointHealth } from '../../storage/WebhookEndpointHealthRepository.js';
import type { StoredEvent } from '../../storage/WebhookEventStore.js';
import type { Partners } from '../ports/Partners.js';
import type { WebhookDeadLetters } from '../ports/WebhookDeadLetters.js';
import type { WebhookEndpointHealth } from '../ports/WebhookEndpointHealth.js';
import type { WebhookEvents } from '../ports/WebhookEvents.js';
import type { WebhookRegistrations } from '../ports/WebhookRegistrations.js';
import type { DeliveryQueue } from './EventPublisher.js';

export interface WebhookDeliveryDeps {
  readonly registrations: WebhookRegistrations;
  /** Events of a partner HQ has deactivated are dropped, never sent. */
  readonly partners: Pick<Partners, 'get'>;
  readonly health: WebhookEndpointHealth;
  readonly events: WebhookEvents;
  readonly deadLetters: WebhookDeadLetters;
  readonly queue: DeliveryQueue;
  readonly sender: { attempt(request: WebhookRequest): Promise<AttemptOutcome> };
  readonly policy: DeliveryPolicy;
  readonly clock: () => Date;
  /** Uniform in [0, 1): jitter of retries and of paused events. */
  readonly random: () => number;
}

/** A probe's claim on a paused endpoint outlives its attempt by this much (storage writes after it). */
const probeMarginMs = 5_000;

/**
 * Runs one delivery message: at most one attempt, bounded by the attempt time, then either done,
 * or the next message queued with its delay, or the event dead-lettered. Nothing waits inside the
 * run, so one partner's slow endpoint holds one slot for at most one attempt's time.
 *
 * A partner whose endpoint is failing is paused: its other events do not spend an attempt each on
 * it but wait in the queue until the pause ends, when one of them probes the endpoint for all.
 * Returns a line for the log: ids, attempt, outcome class and status, never body, URL or secret.
 */
export class WebhookDelivery {
  /** Attempts running in this process, per partner. */
  readonly #inFlight = new Map<string, number>();

  constructor(private readonly deps: WebhookDeliveryDeps) {}

  async deliver(message: WebhookDeliveryMessage, telemetry: Telemetry = noTelemetry): Promise<string> {
    const { partnerId, eventId } = message;
    const what = `event ${eventId} of partner ${partnerId}`;
    const event = await this.deps.events.get(partnerId, eventId);
    if (!event) return `${what}: nothing to do (delivered or dropped before)`;
    const [registration, partner] = await Promise.all([this.deps.registrations.get(partnerId), this.deps.partners.get(partnerId)]);
    if (!registration?.eventTypes.includes(message.eventType)) {
      await this.deps.events.remove(partnerId, eventId);
      return `${what}: dropped, no endpoint takes ${message.eventType} any more`;
    }
    if (message.generation !== undefined && message.generation !== registration.generation) {
      // Removed and registered anew, or registered again after a 410: the partner's new endpoint
      // (perhaps another URL, another secret) never asked for what was meant for the old one.
      await this.deps.events.remove(partnerId, eventId);
      return `${what}: dropped, the endpoint was registered anew after the event was queued`;
    }
    if (partner?.status === 'INACTIVE') {
      // Deactivation stops everything of the partner: its key may be another's, and so its endpoint.
      await this.deps.events.remove(partnerId, eventId);
      return `${what}: dropped, the partner is deactivated`;
    }
    if (registration.disabledAt !== undefined) {
      // The endpoint said it wants no more (410 Gone); the partner registers it again to enable it.
      await this.deps.events.remove(partnerId, eventId);
      return `${what}: dropped, the endpoint is disabled since it answered 410 Gone at ${registration.disabledAt}`;
    }

    const now = this.deps.clock();
    const health = await this.deps.health.get(partnerId);
    if (health) {
      if (Date.parse(health.pausedUntil) > now.getTime()) return this.#wait(message, registration, health, now, what, telemetry);
      // The pause is over: this event probes the endpoint; the others keep waiting meanwhile.
      const claimUntil = new Date(now.getTime() + this.deps.policy.attemptTimeoutMs + probeMarginMs);
      if (!(await this.deps.health.claimProbe(partnerId, health, claimUntil))) {
        const current = (await this.deps.health.get(partnerId)) ?? { ...health, pausedUntil: claimUntil.toISOString() };
        return this.#wait(message, registration, current, now, what, telemetry);
      }
    }

    const running = this.#inFlight.get(partnerId) ?? 0;
    if (running >= this.deps.policy.partnerConcurrency) {
      return this.#returnBusy(message, registration, `${what}: ${running} attempts to this endpoint running`, 'ENDPOINT_BUSY', telemetry);
    }
    this.#inFlight.set(partnerId, running + 1);
    const started = performance.now();
    let outcome: AttemptOutcome;
    try {
      outcome = await this.deps.sender.attempt(this.#request(registration, event, now));
    } finally {
      const left = (this.#inFlight.get(partnerId) ?? 1) - 1;
      if (left > 0) this.#inFlight.set(partnerId, left);
      else this.#inFlight.delete(partnerId);
    }
    // Nothing was sent, and nothing is known of the endpoint: not an attempt, and no pause for it.
    if (!outcome.ok && outcome.errorClass === 'LOOKUPS_BUSY') {
      return this.#returnBusy(message, registration, `${what}: host-name lookups all taken`, 'LOOKUPS_BUSY', telemetry);
    }
    const latencyMs = Math.round(performance.now() - started);
    const attempts = message.attempts + 1;
    const firstAttemptAt = message.firstAttemptAt ?? now.toISOString();
    const measure = (result: 'delivered' | 'retry' | 'dead_letter'): void => {
      telemetry.metric('webhook_delivery', latencyMs, {
        outcome: result,
        attempt: attempts,
        partner: partnerId,
        event: eventId,
        type: message.eventType,
        error: outcome.ok ? undefined : outcome.errorClass,
        status: outcome.status,
      });
    };
    if (outcome.ok) {
      measure('delivered');
      await this.deps.events.remove(partnerId, eventId);
      if (health) await this.deps.health.reset(partnerId);
      return `${what}: delivered on attempt ${attempts} (status ${outcome.status})`;
    }

    const after = this.deps.clock();
    const failed = `${outcome.errorClass}${outcome.status === undefined ? '' : ` ${outcome.status}`}`;
    // The event waits as long as the endpoint's failure streak asks, when that is longer than its own.
    // The endpoint is paused until this event's next attempt, so that this event is the one to probe it.
    const failures = Math.max(attempts, (health?.consecutiveFailures ?? 0) + 1);
    const draw = this.deps.random();
    const jitter = (): number => draw;
    const plan =
      outcome.errorClass === 'GONE'
        ? ({ kind: 'dead-letter' } as const)
        : planRetry(this.deps.policy, {
            createdAt: new Date(message.createdAt),
            now: after,
            failures,
            retryAfterSeconds: outcome.retryAfterSeconds,
            random: jitter,
          });
    const pauseSeconds = plan.kind === 'retry' ? plan.delaySeconds : retryDelaySeconds(this.deps.policy, failures, jitter);
    await this.deps.health.recordFailure(partnerId, outcome.errorClass, new Date(after.getTime() + pauseSeconds * 1000));
    if (plan.kind === 'dead-letter') {
      await this.#deadLetter(message, registration, after, {
        attempts,
        firstAttemptAt,
        lastAttemptAt: now.toISOString(),
        lastErrorClass: outcome.errorClass,
        lastStatus: outcome.status,
      });
      // Standard Webhooks: a 410 asks the sender to stop. After the dead letter, so that a crash
      // between the two leaves this event to HQ, and the next event's 410 disables the endpoint.
      const disabled = outcome.errorClass === 'GONE' && (await this.deps.registrations.disable(partnerId, registration.updatedAt, after));
      measure('dead_letter');
      telemetry.metric('webhook_dead_letter', 1, {
        partner: partnerId,
        event: eventId,
        type: message.eventType,
        error: outcome.errorClass,
      });
      return `${what}: attempt ${attempts} failed (${failed}); dead-lettered${disabled ? '; endpoint disabled until the partner registers it again' : ''}`;
    }
    measure('retry');
    // An attempt was made: a later wait for a busy endpoint starts again from the first.
    const { busyReturns: _attempted, ...next } = message;
    await this.deps.queue.send(
      { ...next, attempts, firstAttemptAt, lastAttemptAt: now.toISOString(), lastErrorClass: outcome.errorClass },
      plan.delaySeconds,
    );
    return `${what}: attempt ${attempts} failed (${failed}); next in ${plan.delaySeconds} s`;
  }

  /**
   * Back to the queue, not an attempt: the slot goes to whatever event is next, of any partner.
   * Each return waits twice as long as the one before, up to the policy's bound; past the event's
   * retry window it is dead-lettered, as a paused endpoint's events are, so that an endpoint or a
   * lookup that stays busy never keeps an event going round for ever.
   */
  async #returnBusy(
    message: WebhookDeliveryMessage,
    registration: WebhookRegistration,
    why: string,
    busyClass: 'ENDPOINT_BUSY' | 'LOOKUPS_BUSY',
    telemetry: Telemetry,
  ): Promise<string> {
    const now = this.deps.clock();
    if (now.getTime() >= Date.parse(message.createdAt) + this.deps.policy.maxAgeSeconds * 1000) {
      await this.#giveUpUnattempted(message, registration, now, message.lastErrorClass ?? busyClass, telemetry);
      return `${why}; past the retry window, dead-lettered`;
    }
    const busyReturns = (message.busyReturns ?? 0) + 1;
    const { busyRetrySeconds, maxBusyRetrySeconds } = this.deps.policy;
    const delaySeconds = Math.min(busyRetrySeconds * 2 ** Math.min(busyReturns - 1, 30), maxBusyRetrySeconds);
    await this.deps.queue.send({ ...message, busyReturns }, delaySeconds);
    return `${why}; waits ${delaySeconds} s`;
  }

  /** The signed request of an attempt made at `now`: same id and body every time, the attempt's own timestamp. */
  #request(registration: WebhookRegistration, event: StoredEvent, now: Date): WebhookRequest {
    const body = Buffer.from(event.body, 'utf8');
    const signed = signWebhook(signingSecrets(registration, now), { id: event.eventId, timestamp: Math.floor(now.getTime() / 1000), body });
    return { url: registration.url, headers: { 'content-type': cloudEventContentType, ...signed }, body };
  }

  /** The endpoint is paused: the event waits in the queue until the pause ends (spread a little), or gives up at the window's end. */
  async #wait(
    message: WebhookDeliveryMessage,
    registration: WebhookRegistration,
    health: EndpointHealth,
    now: Date,
    what: string,
    telemetry: Telemetry,
  ): Promise<string> {
    const deadline = Date.parse(message.createdAt) + this.deps.policy.maxAgeSeconds * 1000;
    if (now.getTime() >= deadline) {
      await this.#giveUpUnattempted(message, registration, now, message.lastErrorClass ?? health.lastErrorClass, telemetry);
      return `${what}: endpoint paused past the retry window; dead-lettered`;
    }
    const wake = Date.parse(health.pausedUntil) + this.deps.random() * this.deps.policy.pauseSpreadSeconds * 1000;
    const delaySeconds = Math.max(1, Math.ceil((Math.min(wake, deadline) - now.getTime()) / 1000));
    await this.deps.queue.send(message, delaySeconds);
    return `${what}: endpoint paused (${health.lastErrorClass}); waits ${delaySeconds} s`;
  }

  /** An event whose retry window ended while it waited, with no attempt of its own since its last failure: to HQ. */
  async #giveUpUnattempted(
    message: WebhookDeliveryMessage,
    registration: WebhookRegistration,
    now: Date,
    lastErrorClass: string,
    telemetry: Telemetry,
  ): Promise<void> {
    telemetry.metric('webhook_dead_letter', 1, {
      partner: message.partnerId,
      event: message.eventId,
      type: message.eventType,
      error: lastErrorClass,
    });
    await this.#deadLetter(message, registration, now, {
      attempts: message.attempts,
      firstAttemptAt: message.firstAttemptAt,
      lastAttemptAt: message.lastAttemptAt,
      lastErrorClass,
      lastStatus: undefined,
    });
  }

  async #deadLetter(
    message: WebhookDeliveryMessage,
    registration: WebhookRegistration,
    now: Date,
    last: {
      attempts: number;
      firstAttemptAt: string | undefined;
      lastAttemptAt: string | undefined;
      lastErrorClass: string;
      lastStatus: number | undefined;
    },
  ): Promise<void> {
    // The event's body stays in the event store, so HQ can send it again (`hq webhook resend`) or drop it.
    await this.deps.deadLetters.add({
      partnerId: message.partnerId,
      eventId: message.eventId,
      eventType: message.eventType,
      targetOrigin: new URL(registration.url).origin,
      attempts: last.attempts,
      lastErrorClass: last.lastErrorClass,
      createdAt: message.createdAt,
      deadLetteredAt: now.toISOString(),
      ...(last.lastStatus === undefined ? {} : { lastStatus: last.lastStatus }),
      ...(last.firstAttemptAt === undefined ? {} : { firstAttemptAt: last.firstAttemptAt }),
      ...(last.lastAttemptAt === undefined ? {} : { lastAttemptAt: last.lastAttemptAt }),
    });
  }
}
