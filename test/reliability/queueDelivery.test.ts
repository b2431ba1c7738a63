import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CapturedQueueFunction } from '../../src/localhost/functionsCoreStandIn.js';
import { QueuePoller } from '../../src/localhost/QueuePoller.js';
import type { LocalHostLogger } from '../../src/localhost/LocalHostLogger.js';
import { createQueueHandler } from '../../src/queue/createQueueHandler.js';
import { isReconcileMessage } from '../../src/queue/messageGuards.js';
import { JsonQueue } from '../../src/storage/JsonQueue.js';
import { poisonQueueName } from '../../src/storage/storageNames.js';
import { eventually, startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { buildDayBatch, businessDateOf, expectedTotals, preparePartner, sendClose } from './support/dayScenario.js';
import { FaultPolicy } from './support/faultPolicy.js';
import { seededRandom } from './support/random.js';

let service: TestService;
let partner: TestPartner;
const policy = new FaultPolicy();
const random = seededRandom(55);
const lines: string[] = [];
const logger: LocalHostLogger = { info: (l) => lines.push(l), warn: (l) => lines.push(l), error: (l) => lines.push(l) };
// A private queue fed to the real reconcile handler: no other test file's poller competes for it.
const queueName = `reliab-reconcile-${randomUUID().slice(0, 8)}`;
let poller: QueuePoller;

beforeAll(async () => {
  // The close's own message stays hidden for the whole file: this file delivers its own copies.
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '3600' }, services: { policy } });
  partner = await preparePartner(service, random);
  const fn: CapturedQueueFunction = {
    kind: 'queue',
    name: 'reconcileDay',
    queueName,
    connection: undefined,
    handler: createQueueHandler('reconcileDay', isReconcileMessage, (message) => service.services.reconciler.reconcile(message)),
    metadata: { name: 'reconcileDay', bindings: {} },
    triggerBindingName: 'queueItem',
    triggerBinding: { type: 'queueTrigger', direction: 'in' } as never,
  };
  poller = new QueuePoller({
    functions: [fn],
    queueServiceClient: service.services.storage.queueService,
    logger,
    maxDequeueCount: 5,
    batchSize: 8,
    visibilityTimeoutSeconds: 1,
    maxPollingIntervalMs: 100,
  });
  await poller.start();
});
afterAll(async () => {
  await poller.stop();
  await service.services.storage.queueService
    .getQueueClient(queueName)
    .delete()
    .catch(() => undefined);
  await service.services.storage.queueService
    .getQueueClient(poisonQueueName(queueName))
    .delete()
    .catch(() => undefined);
  await service.stop();
});

describe('queue delivery at least once', () => {
  it('a reconcile message delivered twice, the first run crashing mid-way, gives one correct result', async () => {
    const businessDate = businessDateOf(3500);
    const batch = buildDayBatch(random, 'NYC-0001', businessDate, 3, 'queue');
    expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBe(202);
    const closeBatchId = await sendClose(service, partner, random, 'NYC-0001', businessDate, batch.trade_records);
    // The first write of a result crashes (after the day was read, before the result was saved).
    policy.armCrash((request) => request.method !== 'GET' && /\/reconciliations(\(|\?|$)/.test(new URL(request.url).pathname));
    const queue = new JsonQueue(service.services.storage.queueService.getQueueClient(queueName));
    // Copies of the close's own run (its id as the close names it), whose note keeps the day RECEIVED until one starts.
    const message = { partnerId: partner.partnerId, storeId: 'NYC-0001', businessDate, closeBatchId, runId: `close-${closeBatchId}` };
    await queue.send(message, 0);
    await queue.send(message, 0);

    const result = await eventually(
      () => service.services.reconciliationQuery.get(partner.partnerId, 'NYC-0001', businessDate),
      (r) => r.status === 'MATCHED',
    );
    expect(result.status).toBe('MATCHED');
    const { trade_record_count, item_row_count, payment_row_count } = expectedTotals(batch.trade_records);
    expect(result.actual).toMatchObject({ trade_record_count, item_row_count, payment_row_count });
    expect(result.actual).toEqual(result.expected);
    // Both copies ran to success: the queue empties, and the crash was seen and retried.
    await eventually(
      async () => (await service.services.storage.queueService.getQueueClient(queueName).getProperties()).approximateMessagesCount ?? 0,
      (count) => count === 0,
    );
    expect(lines.some((l) => l.includes('failed on message'))).toBe(true);
    expect(lines.filter((l) => l.includes('reconcileDay: MATCHED')).length).toBeGreaterThanOrEqual(1);
    const again = await service.services.reconciliationQuery.get(partner.partnerId, 'NYC-0001', businessDate);
    expect(again.actual).toEqual(result.expected);
  });

  it('a message that fails 5 dequeues lands in the poison queue and is logged', async () => {
    const queue = service.services.storage.queueService.getQueueClient(queueName);
    const marker = `poison-${randomUUID().slice(0, 8)}`;
    await queue.sendMessage(Buffer.from(JSON.stringify({ not: 'a reconcile message', marker })).toString('base64'));
    const poison = service.services.storage.queueService.getQueueClient(poisonQueueName(queueName));
    const found = await eventually(
      async () =>
        (await poison.peekMessages({ numberOfMessages: 32 })).peekedMessageItems.map((m) =>
          Buffer.from(m.messageText, 'base64').toString('utf8'),
        ),
      // The host logs the move after the message reached the poison queue: wait for both.
      (texts) => texts.some((t) => t.includes(marker)) && lines.some((l) => l.includes(`moved to ${poisonQueueName(queueName)}`)),
      30_000,
    );
    expect(found.some((t) => t.includes(marker))).toBe(true);
    expect(lines.some((l) => l.includes(`moved to ${poisonQueueName(queueName)} after 5 dequeues`))).toBe(true);
    // The log names the message id and queue, never its content.
    expect(lines.some((l) => l.includes(marker))).toBe(false);
  });
});
