import { performance } from 'node:perf_hooks';
import type { CapturedQueueFunction } from '../src/localhost/functionsCoreStandIn.js';
import { QueuePoller } from '../src/localhost/QueuePoller.js';
import { readHostSettings } from '../src/localhost/readHostSettings.js';
import { createStorageClients } from '../src/storage/StorageClients.js';
import { percentile, round } from './stats.js';

export interface PollerLagResult {
  readonly messages: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
}

/** Handler time of message `i`: 10–60 ms, a short storage-bound function, varied so a wave would wait on its slowest. */
const handlerMs = (i: number): number => 10 + ((i * 37) % 51);

/**
 * The local host's queue poller (host.json settings) under a burst: `messages` messages are sent
 * at once to an idle queue; for each, the time from its send being acknowledged (the message is
 * visible) to its handler starting. Idle means the poller has backed off to host.json's
 * maxPollingInterval, and the burst is sent just after one of those idle polls: the worst case,
 * where the first messages wait the whole interval.
 */
export async function measurePollerLag(connectionString: string, messages: number): Promise<PollerLagResult> {
  const clients = createStorageClients({ storage: { kind: 'connectionString', connectionString }, reportsContainer: 'reports' });
  const queueName = 'bench-poller-lag';
  const visibleAt = new Map<number, number>();
  const lags: number[] = [];
  let allStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (allStarted = resolve));
  const fn: CapturedQueueFunction = {
    kind: 'queue',
    name: 'benchPollerLag',
    queueName,
    connection: undefined,
    handler: async (value: unknown) => {
      const { n } = value as { n: number };
      lags.push(performance.now() - (visibleAt.get(n) ?? Number.NaN));
      if (lags.length === messages) allStarted();
      await new Promise((resolve) => setTimeout(resolve, handlerMs(n)));
    },
    metadata: { name: 'benchPollerLag', bindings: {} },
    triggerBindingName: 'queueItem',
    triggerBinding: { type: 'queueTrigger', direction: 'in' } as never,
  };
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined };
  const { queueMaxPollingIntervalMs } = readHostSettings();
  let backedOff: () => void = () => undefined;
  const idle = new Promise<void>((resolve) => (backedOff = resolve));
  const poller = new QueuePoller({
    functions: [fn],
    queueServiceClient: clients.queueService,
    logger: quiet,
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
  // A handler may start before its send's acknowledgement arrives here; that lag counts as 0.
  const values = lags.map((lag) => (Number.isNaN(lag) ? 0 : Math.max(0, lag)));
  return {
    messages,
    p50Ms: round(percentile(values, 50), 0),
    p95Ms: round(percentile(values, 95), 0),
    maxMs: round(Math.max(...values), 0),
  };
}
