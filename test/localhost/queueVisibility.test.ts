import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type QueueClient, QueueServiceClient } from '@azure/storage-queue';
import { afterEach, describe, expect, inject, it } from 'vitest';
import type { CapturedQueueFunction } from '../../src/localhost/functionsCoreStandIn.js';
import type { LocalHostLogger } from '../../src/localhost/LocalHostLogger.js';
import { QueuePoller } from '../../src/localhost/QueuePoller.js';
import { JsonQueue } from '../../src/storage/JsonQueue.js';
import { poisonQueueName } from '../../src/storage/storageNames.js';

/*
 * The queue trigger keeps a message hidden while its function runs (10 minutes, renewed), and on a
 * failure makes it visible again once host.json's visibilityTimeout has passed, counted from the
 * failure. The local poller does the same, on the storage emulator.
 */

const service = (): QueueServiceClient => QueueServiceClient.fromConnectionString(inject('azuriteConnectionString'));
const logger: LocalHostLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const cleanUp: (() => Promise<void>)[] = [];

afterEach(async () => {
  for (const step of cleanUp.splice(0).reverse()) await step();
});

/** A poller of a queue of its own whose handler is `handle`; returns a way to send to it, and the queue. */
async function pollerWith(
  handle: (name: string) => Promise<void>,
  options: { visibilityTimeoutSeconds: number; runVisibilitySeconds?: number },
): Promise<{ queue: JsonQueue<{ name: string }>; client: QueueClient }> {
  const queueName = `poller-visibility-${randomUUID().slice(0, 8)}`;
  const fn: CapturedQueueFunction = {
    kind: 'queue',
    name: 'sample',
    queueName,
    connection: undefined,
    handler: (value: unknown) => handle((value as { name: string }).name),
    metadata: { name: 'sample', bindings: {} },
    triggerBindingName: 'queueItem',
    triggerBinding: { type: 'queueTrigger', direction: 'in' } as never,
  };
  const poller = new QueuePoller({ functions: [fn], queueServiceClient: service(), logger, maxPollingIntervalMs: 100, ...options });
  await poller.start();
  cleanUp.push(async () => {
    await poller.stop();
    for (const name of [queueName, poisonQueueName(queueName)]) {
      await service()
        .getQueueClient(name)
        .delete()
        .catch(() => undefined);
    }
  });
  const client = service().getQueueClient(queueName);
  return { queue: new JsonQueue<{ name: string }>(client), client };
}

describe('queue message visibility in the local host', () => {
  it('keeps a message hidden while its handler runs past the run visibility, and runs it once', async () => {
    const runs: string[] = [];
    let finished = false;
    const { queue, client } = await pollerWith(
      async (name) => {
        runs.push(name);
        // Past the run visibility: only the renewals keep the message from being received again.
        // A renewal is due every half visibility, so each of the two has 4 s to land; a fresh-clone
        // CI run with ESLint and the type-check beside the tests saw one come over 2 s late.
        await sleep(12_000);
        finished = true;
      },
      { visibilityTimeoutSeconds: 0, runVisibilitySeconds: 8 },
    );
    await queue.send({ name: 'long' }, 0);
    await expect.poll(() => finished, { timeout: 30_000 }).toBe(true);
    // The message is gone from the queue (the emulator counts hidden ones too): deleted with the
    // receipt of the run that finished, which a copy received again would have made stale, so no
    // copy was received and none can be.
    await expect.poll(async () => (await client.getProperties()).approximateMessagesCount).toBe(0);
    expect(runs).toEqual(['long']);
  });

  it('retries a failed message once the retry delay has passed since the failure, not since it was received', async () => {
    const runs: { name: string; startedAt: number; endedAt: number }[] = [];
    const { queue } = await pollerWith(
      async (name) => {
        const startedAt = Date.now();
        // Runs longer than the retry delay before failing: a message hidden since it was received
        // for that delay would be visible again before the failure.
        await sleep(runs.length === 0 ? 2_500 : 0);
        runs.push({ name, startedAt, endedAt: Date.now() });
        if (runs.length === 1) throw new Error('the first run fails');
      },
      { visibilityTimeoutSeconds: 2 },
    );
    await queue.send({ name: 'flaky' }, 0);
    await expect.poll(() => runs.length, { timeout: 20_000 }).toBe(2);
    const [first, second] = runs;
    expect(second!.startedAt - first!.endedAt).toBeGreaterThanOrEqual(1_900);
  });
});
