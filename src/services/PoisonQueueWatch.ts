import type { QueueClient } from '@azure/storage-queue';
import type { Telemetry } from '../observability/Telemetry.js';
import { isNotFound } from '../storage/storageErrors.js';

/** One poison queue and how many messages it holds. */
export interface PoisonQueueDepth {
  readonly queue: string;
  readonly waiting: number;
}

/**
 * How many messages wait in each poison queue. A message that fails its last allowed attempt with
 * an error writes `poison_message` as it goes; one whose last attempt ended by a crash, an
 * out-of-memory stop or the function timeout is moved by the host without a line from the
 * service. Counting the queues themselves finds both, and keeps saying so until HQ has dealt with
 * them.
 */
export class PoisonQueueWatch {
  constructor(private readonly poisonQueues: readonly QueueClient[]) {}

  /** Writes `poison_messages_waiting` for every poison queue (0 included, so a chart shows the watch ran). */
  async report(telemetry: Telemetry): Promise<PoisonQueueDepth[]> {
    const depths = await Promise.all(this.poisonQueues.map(async (queue) => ({ queue: queue.name, waiting: await waitingIn(queue) })));
    for (const { queue, waiting } of depths) telemetry.metric('poison_messages_waiting', waiting, { queue });
    return depths;
  }
}

/** The queue's approximate message count; a queue not created yet holds none. */
async function waitingIn(queue: QueueClient): Promise<number> {
  try {
    return (await queue.getProperties()).approximateMessagesCount ?? 0;
  } catch (error) {
    if (isNotFound(error)) return 0;
    throw error;
  }
}
