import { JsonQueue } from '../storage/JsonQueue.js';
import type { StorageClients } from '../storage/StorageClients.js';
import { WebhookDeadLetterRepository } from '../storage/WebhookDeadLetterRepository.js';
import { WebhookEndpointHealthRepository } from '../storage/WebhookEndpointHealthRepository.js';
import { WebhookEventStore } from '../storage/WebhookEventStore.js';
import { WebhookRegistrationRepository } from '../storage/WebhookRegistrationRepository.js';
import type { WebhookDeliveryMessage } from '../events/WebhookDeliveryMessage.js';
import type { WebhookRegistration } from '../events/WebhookRegistration.js';
import { DeadLetterActions } from '../services/webhooks/DeadLetterActions.js';
import { maxWebhookFailures, WebhookFailureQuery } from '../services/webhooks/WebhookFailureQuery.js';
import type { HqContext, Options } from './HqContext.js';
import { UsageError } from './parseArgs.js';
import { printable } from './printable.js';
import { Refusal } from './Refusal.js';

const endpointHeader = 'partner\ttarget\tevent_types\tcreated_at\tupdated_at\tprevious_secret_expires_at\tdisabled_at';

/** An endpoint by its origin alone: the path and query may hold the partner's tokens. */
function endpointLine(registration: WebhookRegistration): string {
  const fields = [
    registration.partnerId,
    new URL(registration.url).origin,
    registration.eventTypes.join(','),
    registration.createdAt,
    registration.updatedAt,
    registration.previousSecret?.expiresAt ?? '-',
    registration.disabledAt ?? '-',
  ];
  return fields.map(printable).join('\t');
}

/**
 * The HQ tool's `webhook list|show|remove|resend|dismiss|failures`: a partner's endpoint as HQ
 * needs to see and stop it (after a key was stolen, the thief may have registered its own), the
 * deliveries that were given up, and what to do with each. Partner ids arrive resolved, except
 * `failures`' `--partner`. Never prints a secret, a body or a URL's path and query (they may hold
 * the partner's tokens).
 */
export class WebhookCommands {
  private readonly registrations: WebhookRegistrationRepository;
  private readonly health: WebhookEndpointHealthRepository;
  private readonly deadLetters: DeadLetterActions;
  private readonly failureQuery: WebhookFailureQuery;

  constructor(
    private readonly context: HqContext,
    storage: StorageClients,
  ) {
    const t = storage.tables;
    const deadLetters = new WebhookDeadLetterRepository(t.webhookDeadLetters);
    this.failureQuery = new WebhookFailureQuery(deadLetters);
    this.registrations = new WebhookRegistrationRepository(t.webhooks);
    this.health = new WebhookEndpointHealthRepository(t.webhooks);
    this.deadLetters = new DeadLetterActions({
      deadLetters,
      events: new WebhookEventStore(t.webhookEvents),
      registrations: this.registrations,
      queue: new JsonQueue<WebhookDeliveryMessage>(storage.queues.webhookDeliveries),
      clock: context.clock,
    });
  }

  async show(partnerId: string): Promise<void> {
    const registration = await this.registrations.get(partnerId);
    if (!registration) throw new Refusal(`partner ${printable(partnerId)} has no webhook endpoint`);
    this.context.io.out(endpointHeader);
    this.context.io.out(endpointLine(registration));
  }

  /** Every partner's endpoint, one line each: which are disabled (they answered 410 Gone) shows at a glance. */
  async list(): Promise<void> {
    this.context.io.out(endpointHeader);
    for (const registration of await this.registrations.list()) this.context.io.out(endpointLine(registration));
  }

  /** Events not yet delivered to it are dropped at their next attempt. */
  async remove(partnerId: string): Promise<void> {
    if (!(await this.registrations.remove(partnerId))) throw new Refusal(`partner ${printable(partnerId)} has no webhook endpoint`);
    await this.health.reset(partnerId);
    this.context.io.out(`webhook endpoint of ${printable(partnerId)} removed; events not yet delivered to it are dropped.`);
  }

  async resend(partnerId: string, eventId: string): Promise<void> {
    const outcome = await this.deadLetters.resend(partnerId, eventId);
    if (outcome === 'no-dead-letter') throw new Refusal(`no given-up delivery ${printable(eventId)} of partner ${printable(partnerId)}`);
    if (outcome === 'body-gone') throw new Refusal(`the body of event ${printable(eventId)} is no longer stored; dismiss it`);
    if (outcome === 'no-endpoint') {
      throw new Refusal(`partner ${printable(partnerId)} has no webhook endpoint: the partner registers one (PUT /webhook), then resend`);
    }
    if (outcome === 'endpoint-disabled') {
      throw new Refusal(
        `the webhook endpoint of ${printable(partnerId)} is disabled (it answered 410 Gone): the partner registers it again (PUT /webhook), then resend`,
      );
    }
    if (outcome === 'not-subscribed') {
      throw new Refusal(
        `the webhook endpoint of ${printable(partnerId)} no longer takes this event's type: the partner adds it (PUT /webhook), then resend, or dismiss it`,
      );
    }
    this.context.io.out(`event ${printable(eventId)} of ${printable(partnerId)} queued again, with 24 hours of attempts.`);
  }

  async dismiss(partnerId: string, eventId: string): Promise<void> {
    if (!(await this.deadLetters.dismiss(partnerId, eventId))) {
      throw new Refusal(`no given-up delivery ${printable(eventId)} of partner ${printable(partnerId)}`);
    }
    this.context.io.out(`event ${printable(eventId)} of ${printable(partnerId)} dismissed.`);
  }

  /** Dead-lettered deliveries, newest first: ids, classes and the endpoint's origin; never a body, secret or URL path. */
  async failures(options: Options): Promise<void> {
    const { io } = this.context;
    let limit: number | undefined;
    if (options.limit !== undefined) {
      limit = Number(options.limit);
      if (!Number.isSafeInteger(limit) || limit < 1 || limit > maxWebhookFailures) {
        throw new UsageError(`--limit must be a whole number from 1 to ${maxWebhookFailures}`);
      }
    }
    // Resolved first: an unknown partner is an error alone, not a table header and then an error.
    const partnerId = options.partner === undefined ? undefined : await this.context.resolvePartner(options.partner);
    io.out('dead_lettered_at\tpartner\tevent_id\tevent_type\tattempts\tlast_error\tfirst_attempt_at\tlast_attempt_at\ttarget');
    const failures = await this.failureQuery.list({ partnerId, limit });
    for (const f of failures.items) {
      const error = f.last_status === null ? f.last_error_class : `${f.last_error_class} ${f.last_status}`;
      io.out(
        [
          f.dead_lettered_at,
          f.partner_id,
          f.event_id,
          f.event_type,
          f.attempts,
          error,
          f.first_attempt_at ?? '-',
          f.last_attempt_at ?? '-',
          f.target_origin,
        ]
          .map((cell) => printable(String(cell)))
          .join('\t'),
      );
    }
    if (failures.truncated) {
      io.err(`Older failures are left out: raise --limit (at most ${maxWebhookFailures}) or name a --partner.`);
    }
  }
}
