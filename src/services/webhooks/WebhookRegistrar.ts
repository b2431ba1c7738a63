import { ApiError } from '../../errors/ApiError.js';
import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import { eventTypes, isEventType, type EventType } from '../../events/eventTypes.js';
import { secretOverlapSeconds, type WebhookRegistration } from '../../events/WebhookRegistration.js';
import { WebhookSecret } from '../../events/WebhookSecret.js';
import type { WebhookTargetGuard } from '../../outbound/WebhookTargetGuard.js';
import type { WebhookEndpointHealth } from '../ports/WebhookEndpointHealth.js';
import type { WebhookRegistrations } from '../ports/WebhookRegistrations.js';

/** A partner's webhook as the partner API shows it: never the secret. */
export interface WebhookBody {
  readonly url: string;
  readonly event_types: readonly EventType[];
  readonly created_at: string;
  readonly updated_at: string;
  /** After a rotation: until when the previous secret still signs; null otherwise. */
  readonly previous_secret_expires_at: string | null;
  /** When the endpoint answered 410 Gone, after which nothing is sent until it is registered again; null while enabled. */
  readonly disabled_at: string | null;
}

/** The answer of the first registration and of a rotation: the secret, this once. */
export type WebhookBodyWithSecret = WebhookBody & { readonly secret: string };

export interface WebhookRegistrarDeps {
  readonly registrations: WebhookRegistrations;
  readonly health: WebhookEndpointHealth;
  readonly guard: WebhookTargetGuard;
  readonly clock: () => Date;
}

/** Seconds a registration refused for busy lookups is asked to wait: about one lookup's time. */
const lookupsBusyRetrySeconds = 5;

/**
 * A partner's one webhook endpoint: register or replace it (the first registration answers the
 * signing secret once; any registration enables an endpoint disabled by a 410 Gone), show it
 * without the secret, rotate the secret, remove it. The URL is checked against the outbound target
 * rules, its host name resolved, before anything is stored.
 */
export class WebhookRegistrar {
  constructor(private readonly deps: WebhookRegistrarDeps) {}

  /** Full replace of URL and event types; the secret only on the first registration. */
  async register(
    partnerId: string,
    request: { readonly url: string; readonly eventTypes: readonly string[] },
  ): Promise<WebhookBody | WebhookBodyWithSecret> {
    const endpoint = { url: request.url, eventTypes: checkEventTypes(request.eventTypes) };
    const verdict = await this.deps.guard.check(request.url);
    if (!verdict.ok && verdict.reason === 'LOOKUPS_BUSY') {
      throw new ApiError(
        'SERVICE_UNAVAILABLE',
        "The webhook URL's host name could not be looked up just now; nothing was changed. Retry after the seconds in Retry-After.",
        [],
        lookupsBusyRetrySeconds,
      );
    }
    if (!verdict.ok) {
      throw new ApiError('INVALID_PAYLOAD', 'The webhook URL is not accepted.', [{ path: '/url', message: verdict.message }]);
    }
    const now = this.deps.clock();
    const existing = await this.deps.registrations.get(partnerId);
    if (!existing) {
      const secret = WebhookSecret.generate();
      if (await this.deps.registrations.create(partnerId, endpoint, secret, now)) {
        await this.deps.health.reset(partnerId);
        return { ...toBody(await this.#require(partnerId), now), secret: secret.reveal() };
      }
      // Another registration got there first and holds the secret its caller received.
    }
    await this.deps.registrations.replaceEndpoint(partnerId, endpoint, now);
    // A new URL starts healthy: the old one's failures say nothing about it; nor do they about an
    // endpoint registered again after it answered 410 Gone, which this registration enables.
    if (existing?.url !== endpoint.url || existing.disabledAt !== undefined) await this.deps.health.reset(partnerId);
    return toBody(await this.#require(partnerId), now);
  }

  async get(partnerId: string): Promise<WebhookBody | undefined> {
    const registration = await this.deps.registrations.get(partnerId);
    return registration && toBody(registration, this.deps.clock());
  }

  /** A new secret, answered this once; the old one keeps signing for 24 hours. Undefined without an endpoint. */
  async rotateSecret(partnerId: string): Promise<WebhookBodyWithSecret | undefined> {
    const secret = WebhookSecret.generate();
    const now = this.deps.clock();
    if (!(await this.deps.registrations.rotateSecret(partnerId, secret, now, secretOverlapSeconds))) return undefined;
    return { ...toBody(await this.#require(partnerId), now), secret: secret.reveal() };
  }

  /** Removes the endpoint; events not yet delivered to it are dropped at their next attempt. */
  async remove(partnerId: string): Promise<boolean> {
    const removed = await this.deps.registrations.remove(partnerId);
    await this.deps.health.reset(partnerId);
    return removed;
  }

  async #require(partnerId: string): Promise<WebhookRegistration> {
    const registration = await this.deps.registrations.get(partnerId);
    // Removed between the write and this read: the caller may simply repeat the request.
    if (!registration) throw new ApiError('SERVICE_UNAVAILABLE', 'The webhook changed while it was being saved; send the request again.');
    return registration;
  }
}

function checkEventTypes(requested: readonly string[]): EventType[] {
  const details: ProblemDetail[] = [];
  if (requested.length === 0) details.push({ path: '/event_types', message: 'must name at least one event type' });
  requested.forEach((type, i) => {
    if (!isEventType(type)) details.push({ path: `/event_types/${i}`, message: `must be one of ${eventTypes.join(', ')}` });
    else if (requested.indexOf(type) !== i) details.push({ path: `/event_types/${i}`, message: 'is listed twice' });
  });
  if (details.length > 0) throw new ApiError('INVALID_PAYLOAD', 'The event types are not accepted.', details);
  return requested.filter(isEventType);
}

function toBody(registration: WebhookRegistration, now: Date): WebhookBody {
  const previous = registration.previousSecret;
  return {
    url: registration.url,
    event_types: registration.eventTypes,
    created_at: registration.createdAt,
    updated_at: registration.updatedAt,
    previous_secret_expires_at: previous && Date.parse(previous.expiresAt) > now.getTime() ? previous.expiresAt : null,
    disabled_at: registration.disabledAt ?? null,
  };
}
