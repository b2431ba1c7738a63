import type { DeadLetter } from '../../storage/WebhookDeadLetterRepository.js';
import type { WebhookDeadLetters } from '../ports/WebhookDeadLetters.js';

/** One dead-lettered delivery as HQ sees it: who, what, how often, why; never the body, the secret or the URL's path. */
export interface WebhookFailure {
  readonly partner_id: string;
  readonly event_id: string;
  readonly event_type: string;
  /** Scheme, host and port of the endpoint only. */
  readonly target_origin: string;
  readonly attempts: number;
  readonly last_error_class: string;
  readonly last_status: number | null;
  readonly created_at: string;
  readonly first_attempt_at: string | null;
  readonly last_attempt_at: string | null;
  readonly dead_lettered_at: string;
}

/** Most failures one call lists. */
export const maxWebhookFailures = 500;

/** Failures a call lists when it does not say how many. */
export const defaultWebhookFailures = 100;

/** The newest failures, and whether older ones were left out. */
export interface WebhookFailures {
  readonly items: WebhookFailure[];
  readonly truncated: boolean;
}

/**
 * Webhook deliveries given up, newest first, for HQ: the HQ tool's `webhook failures` and the HQ
 * API. Everyone's, or one partner's.
 */
export class WebhookFailureQuery {
  constructor(private readonly deadLetters: WebhookDeadLetters) {}

  async list(options: { readonly partnerId?: string | undefined; readonly limit?: number | undefined } = {}): Promise<WebhookFailures> {
    const limit = Math.min(Math.max(options.limit ?? defaultWebhookFailures, 1), maxWebhookFailures);
    // One more than asked for tells whether older failures were left out.
    const deadLetters = await this.deadLetters.list({
      ...(options.partnerId === undefined ? {} : { partnerId: options.partnerId }),
      limit: limit + 1,
    });
    return { items: deadLetters.slice(0, limit).map(toFailure), truncated: deadLetters.length > limit };
  }
}

function toFailure(d: DeadLetter): WebhookFailure {
  return {
    partner_id: d.partnerId,
    event_id: d.eventId,
    event_type: d.eventType,
    target_origin: originOnly(d.targetOrigin),
    attempts: d.attempts,
    last_error_class: d.lastErrorClass,
    last_status: d.lastStatus ?? null,
    created_at: d.createdAt,
    first_attempt_at: d.firstAttemptAt ?? null,
    last_attempt_at: d.lastAttemptAt ?? null,
    dead_lettered_at: d.deadLetteredAt,
  };
}

/** The record holds an origin already; this keeps it so even if a record was written with more (credentials, path). */
function originOnly(text: string): string {
  try {
    return new URL(text).origin;
  } catch {
    return '(invalid)';
  }
}
