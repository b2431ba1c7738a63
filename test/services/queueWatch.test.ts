import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lostDeliveryWatchSchedule, queueWatchSchedule } from '../../src/functions/functionTable.js';
import { poisonQueueName, queueNames } from '../../src/storage/storageNames.js';
import { runTimerFunction } from '../support/runTimerFunction.js';
import { startTestService, type TestService } from '../support/startTestService.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

const poisonQueue = (name: string) => service.services.storage.queueService.getQueueClient(poisonQueueName(name));
const runWatch = () => runTimerFunction(service, 'watchQueues', queueWatchSchedule);

describe('watchQueues', () => {
  it('writes the count of every poison queue, and warns naming those that hold messages, however they got there', async () => {
    const quiet = await runWatch();
    expect(quiet.filter((line) => line.startsWith('metric poison_messages_waiting ')).sort()).toEqual(
      Object.values(queueNames)
        .map((name) => `metric poison_messages_waiting 0 queue=${poisonQueueName(name)}`)
        .sort(),
    );
    expect(quiet.filter((line) => line.startsWith('watchQueues'))).toEqual([]);
    // Nothing waits to be reconciled either.
    expect(quiet).toContain('metric reconcile_waiting_seconds 0 messages=0');

    // As the host leaves a message whose last attempt ended in a crash: moved, no handler line.
    const reconcilePoison = poisonQueue(queueNames.reconcile);
    await reconcilePoison.sendMessage(Buffer.from('{"partnerId":"p"}').toString('base64'));
    await reconcilePoison.sendMessage(Buffer.from('{"partnerId":"q"}').toString('base64'));
    try {
      const lines = await runWatch();
      expect(lines).toContain(`metric poison_messages_waiting 2 queue=${poisonQueueName(queueNames.reconcile)}`);
      expect(lines).toContain(`metric poison_messages_waiting 0 queue=${poisonQueueName(queueNames.webhookDeliveries)}`);
      expect(lines).toContain(`watchQueues: messages wait for HQ in ${poisonQueueName(queueNames.reconcile)} (2)`);
      // Nothing of a message's content is written.
      expect(lines.join('\n')).not.toMatch(/partnerId/);
    } finally {
      await reconcilePoison.clearMessages();
    }
  });

  it('counts a poison queue that does not exist yet as empty', async () => {
    const queue = poisonQueue(queueNames.closedDayReruns);
    await queue.delete();
    try {
      expect(await runWatch()).toContain(`metric poison_messages_waiting 0 queue=${poisonQueueName(queueNames.closedDayReruns)}`);
    } finally {
      await queue.createIfNotExists();
    }
  });

  it('runs the hourly watch of lost webhook deliveries from the function table, quiet when nothing is lost', async () => {
    // What it finds is LostDeliveryWatch's test; here, that the host registers it on its schedule.
    const lines = await runTimerFunction(service, 'deadLetterLostDeliveries', lostDeliveryWatchSchedule);
    expect(lines.filter((line) => line.startsWith('deadLetterLostDeliveries'))).toEqual([]);
  });
});
