import type { WebhookEvents } from '../../../src/services/ports/WebhookEvents.js';
import { EventTooLargeError, maxEventBodyBytes, type StoredEvent } from '../../../src/storage/WebhookEventStore.js';

/** Undelivered events in a map, for unit tests of services; the same body limit as storage. */
export class InMemoryWebhookEvents implements WebhookEvents {
  private readonly byKey = new Map<string, StoredEvent>();

  add(event: StoredEvent): Promise<'created' | 'exists'> {
    const bytes = Buffer.byteLength(event.body, 'utf8');
    if (bytes > maxEventBodyBytes) return Promise.reject(new EventTooLargeError(bytes));
    const k = JSON.stringify([event.partnerId, event.eventId]);
    if (this.byKey.has(k)) return Promise.resolve('exists');
    this.byKey.set(k, { ...event });
    return Promise.resolve('created');
  }

  get(partnerId: string, eventId: string): Promise<StoredEvent | undefined> {
    return Promise.resolve(this.byKey.get(JSON.stringify([partnerId, eventId])));
  }

  remove(partnerId: string, eventId: string): Promise<void> {
    this.byKey.delete(JSON.stringify([partnerId, eventId]));
    return Promise.resolve();
  }

  restartWindow(partnerId: string, eventId: string, at: string): Promise<boolean> {
    const key = JSON.stringify([partnerId, eventId]);
    const event = this.byKey.get(key);
    if (event) this.byKey.set(key, { ...event, createdAt: at });
    return Promise.resolve(event !== undefined);
  }

  async *listCreatedBefore(before: string): AsyncIterable<Omit<StoredEvent, 'body'>> {
    for (const { body: _body, ...event } of [...this.byKey.values()]) {
      await Promise.resolve();
      if (event.createdAt < before) yield event;
    }
  }
}
