import { randomUUID } from 'node:crypto';
import type { WebhookEndpoint, WebhookRegistration } from '../../../src/events/WebhookRegistration.js';
import type { WebhookSecret } from '../../../src/events/WebhookSecret.js';
import type { WebhookRegistrations } from '../../../src/services/ports/WebhookRegistrations.js';

/** Webhook endpoints in a map, for unit tests of services. */
export class InMemoryWebhookRegistrations implements WebhookRegistrations {
  private readonly byPartner = new Map<string, WebhookRegistration>();

  get(partnerId: string): Promise<WebhookRegistration | undefined> {
    return Promise.resolve(this.byPartner.get(partnerId));
  }

  create(partnerId: string, endpoint: WebhookEndpoint, secret: WebhookSecret, now: Date): Promise<boolean> {
    if (this.byPartner.has(partnerId)) return Promise.resolve(false);
    const at = now.toISOString();
    this.byPartner.set(partnerId, {
      partnerId,
      url: endpoint.url,
      eventTypes: [...endpoint.eventTypes],
      secret,
      createdAt: at,
      updatedAt: at,
      generation: randomUUID(),
    });
    return Promise.resolve(true);
  }

  replaceEndpoint(partnerId: string, endpoint: WebhookEndpoint, now: Date): Promise<boolean> {
    const current = this.byPartner.get(partnerId);
    if (!current) return Promise.resolve(false);
    const { disabledAt, ...rest } = current;
    this.byPartner.set(partnerId, {
      ...rest,
      url: endpoint.url,
      eventTypes: [...endpoint.eventTypes],
      updatedAt: now.toISOString(),
      generation: disabledAt === undefined ? current.generation : randomUUID(),
    });
    return Promise.resolve(true);
  }

  disable(partnerId: string, attemptedUpdatedAt: string, now: Date): Promise<boolean> {
    const current = this.byPartner.get(partnerId);
    if (current?.updatedAt !== attemptedUpdatedAt || current.disabledAt !== undefined) return Promise.resolve(false);
    this.byPartner.set(partnerId, { ...current, disabledAt: now.toISOString() });
    return Promise.resolve(true);
  }

  rotateSecret(partnerId: string, next: WebhookSecret, now: Date, overlapSeconds: number): Promise<boolean> {
    const current = this.byPartner.get(partnerId);
    if (!current) return Promise.resolve(false);
    const expiresAt = new Date(now.getTime() + overlapSeconds * 1000).toISOString();
    this.byPartner.set(partnerId, {
      ...current,
      secret: next,
      previousSecret: { secret: current.secret, expiresAt },
      updatedAt: now.toISOString(),
    });
    return Promise.resolve(true);
  }

  remove(partnerId: string): Promise<boolean> {
    return Promise.resolve(this.byPartner.delete(partnerId));
  }

  list(): Promise<WebhookRegistration[]> {
    return Promise.resolve([...this.byPartner.values()].sort((a, b) => a.partnerId.localeCompare(b.partnerId)));
  }
}
