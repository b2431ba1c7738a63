import { randomUUID } from 'node:crypto';
import type { PipelinePolicy } from '@azure/core-rest-pipeline';
import { afterAll, describe, expect, it } from 'vitest';
import type { CapturedQueueFunction } from '../../src/localhost/functionsCoreStandIn.js';
import type { LocalHostLogger } from '../../src/localhost/LocalHostLogger.js';
import { QueuePoller, type QueuePoll } from '../../src/localhost/QueuePoller.js';
import { createStorageClients } from '../../src/storage/StorageClients.js';
import { poisonQueueName } from '../../src/storage/storageNames.js';
import { azuriteConfig } from '../support/azuriteConfig.js';

/*
 * Like the Functions queue trigger, the local poller polls an empty queue less and less often, up to
 * maxPollingInterval apart, and still takes a message sent then within that interval.
 */

const queueName = `poller-idle-${randomUUID().slice(0, 8)}`;
const maxPollingIntervalMs = 1_000;
/** When each receive request of the test's queue left for the emulator. */
const receives: number[] = [];
const countReceives: PipelinePolicy = {
  name: 'countReceives',
  sendRequest: (request, next) => {
    if (request.method === 'GET' && new URL(request.url).pathname.endsWith(`/${queueName}/messages`)) receives.push(Date.now());
    return next(request);
  },
};
const storage = createStorageClients(azuriteConfig(), { policy: countReceives });
const logger: LocalHostLogger = { info: () => undefined, warn: () => undefined, error: () => undefined };
const polls: (QueuePoll & { at: number })[] = [];
const handled: { text: unknown; at: number }[] = [];
const fn: CapturedQueueFunction = {
  kind: 'queue',
  name: 'idle',
  queueName,
  connection: undefined,
  handler: (value: unknown) => {
    handled.push({ text: value, at: Date.now() });
  },
  metadata: { name: 'idle', bindings: {} },
  triggerBindingName: 'queueItem',
  triggerBinding: { type: 'queueTrigger', direction: 'in' } as never,
};
const poller = new QueuePoller({
  functions: [fn],
  queueServiceClient: storage.queueService,
  logger,
  visibilityTimeoutSeconds: 30,
  maxPollingIntervalMs,
  onPoll: (poll) => polls.push({ ...poll, at: Date.now() }),
});

afterAll(async () => {
  await poller.stop();
  await storage.queueService.deleteQueue(queueName).catch(() => undefined);
  await storage.queueService.deleteQueue(poisonQueueName(queueName)).catch(() => undefined);
});

describe('the local queue poller on an idle queue', () => {
  it('polls less and less often, up to the maximum interval apart, and still takes a message within it', async () => {
    await poller.start();
    // Backed off all the way: three polls in a row announce the longest pause.
    await expect.poll(() => polls.filter((poll) => poll.nextPollInMs === maxPollingIntervalMs).length, { timeout: 15_000 }).toBe(3);

    // The announced pauses grew to the maximum (100 ms, about 200, 300, 500, 900, then 1 s) and every
    // poll was a receive request, made no sooner than its pause allowed.
    const pauses = polls.map((poll) => poll.nextPollInMs);
    expect(pauses[0]).toBe(100);
    expect(pauses).toEqual([...pauses].sort((a, b) => a - b));
    expect(polls.every((poll) => poll.received === 0 && !poll.failed)).toBe(true);
    expect(receives).toHaveLength(polls.length);
    for (let i = 1; i < receives.length; i++) expect(receives[i]! - receives[i - 1]!).toBeGreaterThanOrEqual(pauses[i - 1]! - 5);
    // Fewer receive calls as the queue stays empty: several in its first 1.5 s, at most two in the
    // last 1.5 s (the last request and one a full interval before it). A poller that kept to 100 ms
    // would have made about 15 in each.
    const within = (from: number, to: number): number => receives.filter((at) => at >= from && at <= to).length;
    const early = within(receives[0]!, receives[0]! + 1_500);
    const late = within(receives.at(-1)! - 1_500, receives.at(-1)!);
    expect(late).toBeLessThanOrEqual(2);
    expect(early).toBeGreaterThan(late);

    await storage.queueService.getQueueClient(queueName).sendMessage(Buffer.from('after a quiet spell').toString('base64'));
    const sentAt = Date.now();
    await expect.poll(() => handled.length, { timeout: 5_000 }).toBe(1);
    expect(handled[0]!.text).toBe('after a quiet spell');
    const found = polls.findIndex((poll) => poll.received === 1);
    expect(found).toBeGreaterThan(0);
    // Found by the first receive sent after it (or one already under way): it waited at most the
    // one pause under way, and no pause is longer than the maximum (above).
    expect(receives.filter((at) => at > sentAt && at < receives[found]!)).toEqual([]);

    // After the poll that found it, the next empty poll pauses only 100 ms again.
    await expect.poll(() => polls.length, { timeout: 5_000 }).toBeGreaterThan(found + 1);
    expect(polls.slice(found, found + 2).map(({ received, nextPollInMs }) => ({ received, nextPollInMs }))).toEqual([
      { received: 1, nextPollInMs: 0 },
      { received: 0, nextPollInMs: 100 },
    ]);
  });
});
