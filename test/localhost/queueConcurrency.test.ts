import { randomUUID } from 'node:crypto';
import { QueueServiceClient } from '@azure/storage-queue';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { CapturedQueueFunction } from '../../src/localhost/functionsCoreStandIn.js';
import type { LocalHostLogger } from '../../src/localhost/LocalHostLogger.js';
import { QueuePoller, type QueuePoll } from '../../src/localhost/QueuePoller.js';
import { JsonQueue } from '../../src/storage/JsonQueue.js';
import { poisonQueueName } from '../../src/storage/storageNames.js';
import { deferred } from '../support/deferred.js';

/*
 * The Functions queue trigger fetches a new batch as soon as the messages still running drop to
 * newBatchThreshold (batchSize / 2 by default); it does not wait for a whole batch to finish.
 * So one slow message does not hold up messages that arrive after it.
 */

const queueName = `poller-concurrency-${randomUUID().slice(0, 8)}`;
const service = (): QueueServiceClient => QueueServiceClient.fromConnectionString(inject('azuriteConnectionString'));
const logger: LocalHostLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const handled = new Map<string, number>();
const started = new Set<string>();
const { promise: slowGate, resolve: release } = deferred();
let poller: QueuePoller;

beforeAll(async () => {
  const fn: CapturedQueueFunction = {
    kind: 'queue',
    name: 'sample',
    queueName,
    connection: undefined,
    handler: async (value: unknown) => {
      const { name } = value as { name: string };
      started.add(name);
      if (name.startsWith('slow')) await slowGate;
      handled.set(name, Date.now());
    },
    metadata: { name: 'sample', bindings: {} },
    triggerBindingName: 'queueItem',
    triggerBinding: { type: 'queueTrigger', direction: 'in' } as never,
  };
  poller = new QueuePoller({
    functions: [fn],
    queueServiceClient: service(),
    logger,
    batchSize: 4,
    visibilityTimeoutSeconds: 30,
    maxPollingIntervalMs: 100,
  });
  await poller.start();
});

afterAll(async () => {
  release();
  await poller.stop();
  await service()
    .getQueueClient(queueName)
    .delete()
    .catch(() => undefined);
  await service()
    .getQueueClient(poisonQueueName(queueName))
    .delete()
    .catch(() => undefined);
});

describe('the local queue poller', () => {
  it('takes messages that arrive while a slow one still runs', async () => {
    const queue = new JsonQueue<{ name: string }>(service().getQueueClient(queueName));
    await queue.send({ name: 'slow-1' }, 0);
    await expect.poll(() => started.has('slow-1'), { timeout: 3_000, interval: 20 }).toBe(true);
    await queue.send({ name: 'quick-1' }, 0);
    await expect.poll(() => handled.get('quick-1'), { timeout: 10_000, interval: 20 }).toBeDefined();
    // slow-1 is held until released below: quick-1 did not wait for it.
    expect(handled.has('slow-1')).toBe(false);
    release();
    await expect.poll(() => handled.has('slow-1'), { timeout: 3_000 }).toBe(true);
  });

  it.each([
    { settings: 'batchSize 4 given to the poller', options: { batchSize: 4 }, batch: 4, threshold: 2 },
    { settings: "host.json's batchSize and newBatchThreshold", options: {}, batch: 32, threshold: 16 },
  ])(
    'fetches another batch only once the running messages drop to newBatchThreshold ($settings)',
    async ({ options, batch, threshold }) => {
      const releases: (() => void)[] = [];
      const polls: QueuePoll[] = [];
      let running = 0;
      const name = `poller-threshold-${randomUUID().slice(0, 8)}`;
      // A poller of its own on another queue, whose handler waits until the test releases it.
      const counting = new QueuePoller({
        functions: [
          {
            kind: 'queue',
            name: 'held',
            queueName: name,
            connection: undefined,
            handler: async () => {
              running += 1;
              await new Promise<void>((resolve) => releases.push(resolve));
              running -= 1;
            },
            metadata: { name: 'held', bindings: {} },
            triggerBindingName: 'queueItem',
            triggerBinding: { type: 'queueTrigger', direction: 'in' } as never,
          },
        ],
        queueServiceClient: service(),
        logger,
        maxDequeueCount: 5,
        ...options,
        visibilityTimeoutSeconds: 30,
        maxPollingIntervalMs: 100,
        onPoll: (poll) => polls.push(poll),
      });
      const heldQueue = new JsonQueue<{ n: number }>(service().getQueueClient(name));
      await service().getQueueClient(name).createIfNotExists();
      await Promise.all(Array.from({ length: 3 * batch }, (_, n) => heldQueue.send({ n }, 0)));
      const reached = async (expected: number): Promise<void> => {
        await expect.poll(() => running, { timeout: 5_000 }).toBe(expected);
      };
      try {
        await counting.start();
        await reached(batch); // one batch; all of it running is above the threshold
        while (running > threshold + 1) {
          releases.shift()?.();
          await reached(running - 1); // still above it: no new batch
        }
        releases.shift()?.();
        await reached(threshold + batch); // down to the threshold: the next batch comes without waiting for the first to end
        // Every poll so far was made with at most the threshold running, and each got a full batch.
        expect(polls.map(({ running: atPoll, received }) => ({ atPoll, received }))).toEqual([
          { atPoll: 0, received: batch },
          { atPoll: threshold, received: batch },
        ]);
        expect(running).toBe(threshold + batch);
      } finally {
        const releaseAll = setInterval(() => {
          while (releases.length > 0) releases.shift()?.();
        }, 10);
        await counting.stop();
        clearInterval(releaseAll);
        await service().getQueueClient(name).delete();
        await service().getQueueClient(poisonQueueName(name)).delete();
      }
    },
  );
});
