import { randomUUID } from 'node:crypto';
import { QueueServiceClient } from '@azure/storage-queue';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { reconciliationSource, storeDaySubject } from '../../../src/events/buildCloudEvent.js';
import { eventIdFor } from '../../../src/events/eventIdFor.js';
import { isWebhookDeliveryMessage, type WebhookDeliveryMessage } from '../../../src/events/WebhookDeliveryMessage.js';
import type { CapturedQueueFunction } from '../../../src/localhost/functionsCoreStandIn.js';
import type { LocalHostLogger } from '../../../src/localhost/LocalHostLogger.js';
import { decodeMessageText, QueuePoller } from '../../../src/localhost/QueuePoller.js';
import { createQueueHandler } from '../../../src/queue/createQueueHandler.js';
import type { EventPublisher } from '../../../src/services/webhooks/EventPublisher.js';
import type { WebhookRegistrar, WebhookBodyWithSecret } from '../../../src/services/webhooks/WebhookRegistrar.js';
import { JsonQueue } from '../../../src/storage/JsonQueue.js';
import { poisonQueueName } from '../../../src/storage/storageNames.js';
import type { WebhookEventStore } from '../../../src/storage/WebhookEventStore.js';
import { azuriteQueue } from '../../support/azuriteClients.js';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhookReceiver.js';
import { independentlyVerified, newPartnerId, webhookServices } from './webhookKit.js';

/*
 * The delivery service behind the local host's queue poller, on a real queue of the storage
 * emulator: messages are base64 JSON as the Functions queue trigger expects, retries are new
 * messages with a real visibility delay (1 s here, instead of 10 s and more), and handler runs
 * of one batch go side by side.
 */

const queueName = `webhook-deliveries-${randomUUID().slice(0, 8)}`;
const lines: string[] = [];
const logger: LocalHostLogger = { info: (l) => lines.push(l), warn: (l) => lines.push(l), error: (l) => lines.push(l) };
let poller: QueuePoller;
let registrar: WebhookRegistrar;
let publisher: EventPublisher;
let events: WebhookEventStore;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  const queueClient = await azuriteQueue(queueName);
  const queue = new JsonQueue<WebhookDeliveryMessage>(queueClient);
  const policy = { attemptTimeoutMs: 5_000, firstRetrySeconds: 1, maxRetrySeconds: 1, jitter: 0, pauseSpreadSeconds: 0 };
  const services = await webhookServices(queue, () => new Date(), { policy });
  ({ registrar, publisher, events } = services);
  const { delivery } = services;
  const fn: CapturedQueueFunction = {
    kind: 'queue',
    name: 'deliverWebhook',
    queueName,
    connection: undefined,
    handler: createQueueHandler('deliverWebhook', isWebhookDeliveryMessage, (message) => delivery.deliver(message)),
    metadata: { name: 'deliverWebhook', bindings: {} },
    triggerBindingName: 'queueItem',
    triggerBinding: { type: 'queueTrigger', direction: 'in' } as never,
  };
  const service = QueueServiceClient.fromConnectionString(inject('azuriteConnectionString'));
  poller = new QueuePoller({
    functions: [fn],
    queueServiceClient: service,
    logger,
    maxDequeueCount: 5,
    batchSize: 8,
    visibilityTimeoutSeconds: 5,
    maxPollingIntervalMs: 100,
  });
});

afterAll(async () => {
  await poller.stop();
  await Promise.all(receivers.map((r) => r.close()));
  const service = QueueServiceClient.fromConnectionString(inject('azuriteConnectionString'));
  await service
    .getQueueClient(queueName)
    .delete()
    .catch(() => undefined);
  await service
    .getQueueClient(poisonQueueName(queueName))
    .delete()
    .catch(() => undefined);
});

/** Two partners, each with its endpoint registered: one that never answers and one that answers 200. */
async function hangingAndHealthyPartners() {
  const hanging = await startWebhookReceiver(() => 'hang');
  const healthy = await startWebhookReceiver(() => 200);
  receivers.push(hanging, healthy);
  const slowPartner = newPartnerId();
  const otherPartner = newPartnerId();
  await registrar.register(slowPartner, { url: hanging.url, eventTypes: ['reconciliation.completed'] });
  await registrar.register(otherPartner, { url: healthy.url, eventTypes: ['reconciliation.completed'] });
  return { hanging, healthy, slowPartner, otherPartner };
}

async function publish(partnerId: string, storeId: string): Promise<string> {
  const id = eventIdFor([partnerId, storeId, randomUUID()]);
  await publisher.publish(partnerId, {
    id,
    type: 'reconciliation.completed',
    source: reconciliationSource,
    subject: storeDaySubject(storeId, '2026-02-28'),
    time: new Date(),
    data: { store_id: storeId, status: 'MATCHED' },
  });
  return id;
}

describe('delivery from the queue', () => {
  it('sends messages the queue trigger decodes: base64 JSON of the delivery message', async () => {
    const peekQueue = await azuriteQueue(`webhook-peek-${randomUUID().slice(0, 8)}`);
    const queue = new JsonQueue<WebhookDeliveryMessage>(peekQueue);
    const message: WebhookDeliveryMessage = {
      partnerId: 'p',
      eventId: 'evt_1',
      eventType: 'batch.failed',
      createdAt: new Date().toISOString(),
      attempts: 2,
    };
    await queue.send(message, 0);
    const [peeked] = (await peekQueue.peekMessages()).peekedMessageItems;
    const decoded = decodeMessageText(peeked?.messageText ?? '');
    expect(decoded?.value).toEqual(message);
    expect(isWebhookDeliveryMessage(decoded?.value)).toBe(true);
    await peekQueue.delete();
  });

  it('a receiver failing three times gets the event a fourth time, same id, retried through the queue', async () => {
    const r = await startWebhookReceiver((n) => (n <= 3 ? 500 : 200));
    receivers.push(r);
    const partner = newPartnerId();
    const { secret } = (await registrar.register(partner, {
      url: r.url,
      eventTypes: ['reconciliation.completed'],
    })) as WebhookBodyWithSecret;
    const eventId = await publish(partner, 'Q1');
    await poller.start();
    await expect.poll(() => r.received.length, { timeout: 20_000, interval: 100 }).toBe(4);
    expect(new Set(r.received.map((q) => q.headers['webhook-id']))).toEqual(new Set([eventId]));
    for (const request of r.received) expect(independentlyVerified(secret, request.headers, request.body)).toBe(true);
    // Each retry waited for its message's visibility delay.
    const times = r.received.map((q) => Number(q.headers['webhook-timestamp']));
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(1);
    await expect.poll(() => events.get(partner, eventId), { timeout: 5_000 }).toBeUndefined();
    // The host's log has the runs, by event id, and neither the secret, the body nor the URL. The
    // last run is logged once its handler returns, which may be after the event row is gone.
    const delivered = `event ${eventId} of partner ${partner}: delivered on attempt 4`;
    await expect.poll(() => lines.join('\n'), { timeout: 5_000 }).toContain(delivered);
    const log = lines.join('\n');
    expect(log).toContain(`event ${eventId} of partner ${partner}: attempt 1 failed (HTTP_ERROR 500)`);
    for (const leak of [secret, secret.slice('whsec_'.length), '"status":"MATCHED"', `127.0.0.1:${r.port}`])
      expect(log).not.toContain(leak);
  });

  it("a hanging receiver does not hold up another partner's event of the same batch", async () => {
    const { hanging, healthy, slowPartner, otherPartner } = await hangingAndHealthyPartners();
    await poller.stop();
    await publish(slowPartner, 'H1');
    await publish(otherPartner, 'H2');
    await poller.start();
    await expect.poll(() => hanging.received.length, { timeout: 10_000, interval: 20 }).toBe(1);
    await expect.poll(() => healthy.received.length, { timeout: 10_000, interval: 20 }).toBe(1);
    // Delivered while the hanging attempt is still running: its connection is still open.
    expect(hanging.open).toBe(1);
    // Until the attempt gives up.
    await expect.poll(() => hanging.open, { timeout: 10_000, interval: 50 }).toBe(0);
  });

  it("a hanging receiver does not hold up another partner's event that arrives while it hangs", async () => {
    const { hanging, healthy, slowPartner, otherPartner } = await hangingAndHealthyPartners();
    await publish(slowPartner, 'L1');
    await expect.poll(() => hanging.received.length, { timeout: 10_000, interval: 20 }).toBe(1);
    await publish(otherPartner, 'L2');
    await expect.poll(() => healthy.received.length, { timeout: 10_000, interval: 20 }).toBe(1);
    // Delivered while the hanging attempt is still running: its connection is still open.
    expect(hanging.open).toBe(1);
  });
});
