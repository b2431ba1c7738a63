import type { WebhookDeadLetters } from '../../../src/services/ports/WebhookDeadLetters.js';
import type { DeadLetter } from '../../../src/storage/WebhookDeadLetterRepository.js';

/** Dead letters in a map, for unit tests of services. */
export class InMemoryWebhookDeadLetters implements WebhookDeadLetters {
  private readonly byKey = new Map<string, DeadLetter>();

  add(deadLetter: DeadLetter): Promise<void> {
    this.byKey.set(JSON.stringify([deadLetter.partnerId, deadLetter.eventId]), { ...deadLetter });
    return Promise.resolve();
  }

  get(partnerId: string, eventId: string): Promise<DeadLetter | undefined> {
    return Promise.resolve(this.byKey.get(JSON.stringify([partnerId, eventId])));
  }

  async *listIds(): AsyncIterable<{ readonly partnerId: string; readonly eventId: string }> {
    for (const { partnerId, eventId } of [...this.byKey.values()]) {
      await Promise.resolve();
      yield { partnerId, eventId };
    }
  }

  list(options: { partnerId?: string; limit: number }): Promise<DeadLetter[]> {
    const all = [...this.byKey.values()].filter((d) => options.partnerId === undefined || d.partnerId === options.partnerId);
    all.sort((a, b) => b.deadLetteredAt.localeCompare(a.deadLetteredAt) || a.eventId.localeCompare(b.eventId));
    return Promise.resolve(all.slice(0, options.limit));
  }

  take(partnerId: string, eventId: string): Promise<DeadLetter | undefined> {
    const key = JSON.stringify([partnerId, eventId]);
    const deadLetter = this.byKey.get(key);
    this.byKey.delete(key);
    return Promise.resolve(deadLetter);
  }

  remove(partnerId: string, eventId: string): Promise<boolean> {
    return Promise.resolve(this.byKey.delete(JSON.stringify([partnerId, eventId])));
  }
}
