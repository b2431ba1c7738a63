import type { WebhookFailure, WebhookFailureQuery } from '../../services/webhooks/WebhookFailureQuery.js';
import type { PartnerRepository } from '../../storage/PartnerRepository.js';
import { requireKnownPartner } from './requireKnownPartner.js';

/** GET /hq/v1/webhook-failures: the newest dead letters, and a mark when older ones were left out. */
export interface DeadLetterListBody {
  readonly items: WebhookFailure[];
  readonly items_truncated?: true;
}

/**
 * Webhook deliveries given up, for the HQ API: everyone's or one partner's, newest first. There is
 * no continuation: the table is keyed by partner and event, not by time, so each call reads every
 * dead letter in its scope and keeps the newest; a caller that needs older ones names a partner.
 */
export class DeadLetterList {
  constructor(
    private readonly partners: Pick<PartnerRepository, 'get'>,
    private readonly failures: Pick<WebhookFailureQuery, 'list'>,
  ) {}

  async list(query: { readonly partnerId?: string | undefined; readonly limit: number }): Promise<DeadLetterListBody> {
    if (query.partnerId !== undefined) await requireKnownPartner(this.partners, query.partnerId);
    const { items, truncated } = await this.failures.list(query);
    return truncated ? { items, items_truncated: true } : { items };
  }
}
