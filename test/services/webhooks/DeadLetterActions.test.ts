import { describe, expect, it } from 'vitest';
import { eventIdFor } from '../../../src/events/eventIdFor.js';
import { DeadLetterActions } from '../../../src/services/webhooks/DeadLetterActions.js';
import type { DeadLetter } from '../../../src/storage/WebhookDeadLetterRepository.js';
import { newPartnerId, startWebhookKit, type WebhookKit } from './webhookKit.js';

/** An event given up after its retries, as the delivery leaves it: stored, with a dead letter. */
async function deadLettered(kit: WebhookKit, partnerId: string): Promise<DeadLetter> {
  const id = eventIdFor([partnerId, 'batch.failed', 'resend']);
  await kit.publisher.publish(partnerId, { id, type: 'batch.failed', source: '/pos/v1/trade-records', time: kit.clock.now(), data: {} });
  expect(kit.queue.takeVisible()).toHaveLength(1);
  const deadLetter: DeadLetter = {
    partnerId,
    eventId: id,
    eventType: 'batch.failed',
    targetOrigin: 'http://127.0.0.1:9',
    attempts: 21,
    lastErrorClass: 'HTTP_ERROR',
    lastStatus: 503,
    createdAt: kit.clock.now().toISOString(),
    deadLetteredAt: kit.clock.now().toISOString(),
  };
  await kit.deadLetters.add(deadLetter);
  return deadLetter;
}

describe('DeadLetterActions.resend', () => {
  it('queues the event once when two operators resend it side by side', async () => {
    const kit = await startWebhookKit();
    const partner = newPartnerId();
    await kit.registrar.register(partner, { url: 'http://127.0.0.1:9/hooks', eventTypes: ['batch.failed'] });
    const { eventId } = await deadLettered(kit, partner);
    const actions = new DeadLetterActions({ ...kit, clock: kit.clock.now });
    const outcomes = await Promise.all([1, 2, 3, 4].map(() => actions.resend(partner, eventId)));
    expect(outcomes.sort()).toEqual(['no-dead-letter', 'no-dead-letter', 'no-dead-letter', 'queued']);
    expect(kit.queue.takeVisible()).toHaveLength(1);
    expect(await kit.deadLetters.get(partner, eventId)).toBeUndefined();
  });

  it('keeps the dead letter when the message cannot be sent', async () => {
    const kit = await startWebhookKit();
    const partner = newPartnerId();
    await kit.registrar.register(partner, { url: 'http://127.0.0.1:9/hooks', eventTypes: ['batch.failed'] });
    const deadLetter = await deadLettered(kit, partner);
    const queueDown = { send: () => Promise.reject(new Error('queue unavailable')) };
    const actions = new DeadLetterActions({ ...kit, queue: queueDown, clock: kit.clock.now });
    await expect(actions.resend(partner, deadLetter.eventId)).rejects.toThrow('queue unavailable');
    expect(await kit.deadLetters.get(partner, deadLetter.eventId)).toEqual(deadLetter);
  });
});
