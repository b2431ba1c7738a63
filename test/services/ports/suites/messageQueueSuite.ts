import { expect, it } from 'vitest';
import type { MessageQueue } from '../../../../src/services/ports/MessageQueue.js';

/** A queue under test and a way to read what a consumer could take from it now. */
export interface QueueUnderTest {
  readonly queue: MessageQueue<{ readonly partnerId: string; readonly n: number }>;
  readonly visibleNow: () => Promise<unknown[]>;
}

/** What every MessageQueue implementation does. */
export function messageQueueSuite(make: () => Promise<QueueUnderTest>): void {
  it('delivers the JSON sent, and holds a delayed message back', async () => {
    const { queue, visibleNow } = await make();
    await queue.send({ partnerId: 'p/1', n: 1 }, 0);
    await queue.send({ partnerId: 'p/1', n: 2 }, 600);
    expect(await visibleNow()).toEqual([{ partnerId: 'p/1', n: 1 }]);
  });
}
