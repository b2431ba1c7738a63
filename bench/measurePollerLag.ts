import { performance } from 'node:perf_hooks';
import type { CapturedQueueFunction } from '../src/localhost/functionsCoreStandIn.js';
import { QueuePoller } from '../src/localhost/QueuePoller.js';
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
 * visible) to its handler starting.
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
  const poller = new QueuePoller({ functions: [fn], queueServiceClient: clients.queueService, logger: quiet });
  await poller.start();
  try {
    // Let the poller find the queue empty and settle into idle polling.
    await new Promise((resolve) => setTimeout(resolve, 500));
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
