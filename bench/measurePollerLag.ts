import { performance } from 'node:perf_hooks';
import type { CapturedQueueFunction } from '../src/localhost/functionsCoreStandIn.js';
import { QueuePoller } from '../src/localhost/QueuePoller.js';
import { readHostSettings } from '../src/localhost/readHostSettings.js';
import { createStorageClients } from '../src/storage/StorageClients.js';
import { percentile, round } from './stats.js';

export interface PollerLagResult {
  readonly messages: number;
  /** Messages fetched per poll; up to batchSize + batchSize / 2 run at once (the trigger's default newBatchThreshold). */
  readonly batchSize: number;
  /** From the first message becoming visible to the first handler starting: the idle poller waking up. */
  readonly idleWaitMs: number;
  /** Per message, from the later of its becoming visible and the poller waking up to its handler starting. */
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

/** Handler time of message `i`: 10–60 ms, a short storage-bound function, varied so a wave would wait on its slowest. */
const handlerMs = (i: number): number => 10 + ((i * 37) % 51);

/**
 * The local host's queue poller (host.json settings) under a burst: `messages` messages are sent
 * at once to an idle queue. Idle means the poller has backed off to host.json's
 * maxPollingInterval, and the burst is sent just after one of those idle polls: the worst case,
 * where the first message waits the whole interval (`idleWaitMs`). The lag of each message is
 * counted from the later of its send being acknowledged (the message is visible) and the first
 * handler starting (the poller awake) to its own handler starting: how the poller works through a
 * burst, apart from the idle wait that host.json's interval decides. `batchSize` replaces
 * host.json's for this run only.
 */
export async function measurePollerLag(connectionString: string, messages: number, batchSize?: number): Promise<PollerLagResult> {
  const clients = createStorageClients({ storage: { kind: 'connectionString', connectionString }, reportsContainer: 'reports' });
  const { queueMaxPollingIntervalMs, queueBatchSize } = readHostSettings();
  const polledBatchSize = batchSize ?? queueBatchSize;
  // A queue of its own per batch size, so runs on one emulator never see each other's messages.
  const queueName = `bench-poller-lag-${String(polledBatchSize)}`;
  const visibleAt = new Map<number, number>();
  const startedAt = new Map<number, number>();
  let allStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (allStarted = resolve));
  const fn: CapturedQueueFunction = {
    kind: 'queue',
    name: 'benchPollerLag',
    queueName,
    connection: undefined,
    handler: async (value: unknown) => {
      const { n } = value as { n: number };
      startedAt.set(n, performance.now());
      if (startedAt.size === messages) allStarted();
      await new Promise((resolve) => setTimeout(resolve, handlerMs(n)));
    },
    metadata: { name: 'benchPollerLag', bindings: {} },
    triggerBindingName: 'queueItem',
    triggerBinding: { type: 'queueTrigger', direction: 'in' } as never,
  };
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  let backedOff: () => void = () => undefined;
  const idle = new Promise<void>((resolve) => (backedOff = resolve));
  const poller = new QueuePoller({
    functions: [fn],
    queueServiceClient: clients.queueService,
    logger: quiet,
    batchSize: polledBatchSize,
    onPoll: (poll) => {
      if (poll.received === 0 && poll.nextPollInMs === queueMaxPollingIntervalMs) backedOff();
    },
  });
  await poller.start();
  try {
    await idle;
    const queue = clients.queueService.getQueueClient(queueName);
    await Promise.all(
      Array.from({ length: messages }, async (_, n) => {
        await queue.sendMessage(Buffer.from(JSON.stringify({ n })).toString('base64'));
        visibleAt.set(n, performance.now());
      }),
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error('the poller did not start every message within 60 s'));
      }, 60_000);
    });
    await Promise.race([started, timeout]).finally(() => {
      clearTimeout(timer);
    });
  } finally {
    await poller.stop();
  }
  const firstStart = Math.min(...startedAt.values());
  const firstVisible = Math.min(...visibleAt.values());
  // A handler may start before its send's acknowledgement arrives here; that lag counts as 0.
  const values = [...startedAt].map(([n, start]) => Math.max(0, start - Math.max(visibleAt.get(n) ?? firstVisible, firstStart)));
  return {
    messages,
    batchSize: polledBatchSize,
    idleWaitMs: round(Math.max(0, firstStart - firstVisible), 0),
    p50Ms: round(percentile(values, 50), 0),
    p95Ms: round(percentile(values, 95), 0),
    maxMs: round(Math.max(...values), 0),
  };
}
