import type { QueueClient } from '@azure/storage-queue';

/** A message looked at without taking it: its JSON body (undefined when it is not one), and when it was sent. */
export interface PeekedMessage {
  readonly body: unknown;
  readonly sentAt: Date;
}

/**
 * Sends JSON messages base64-encoded, the encoding the Functions queue trigger decodes by default,
 * and reads them back the same way. Messages live for 7 days (the service's default), which
 * outlasts any retry.
 */
export class JsonQueue<T> {
  constructor(private readonly queue: QueueClient) {}

  async send(message: T, visibilityDelaySeconds: number): Promise<void> {
    await this.queue.sendMessage(Buffer.from(JSON.stringify(message), 'utf8').toString('base64'), {
      visibilityTimeout: visibilityDelaySeconds,
    });
  }

  /** Up to `count` (at most 32) of the messages that could be taken now, left where they are. */
  async peek(count: number): Promise<PeekedMessage[]> {
    const { peekedMessageItems } = await this.queue.peekMessages({ numberOfMessages: count });
    return peekedMessageItems.map((item) => ({ body: decoded(item.messageText), sentAt: item.insertedOn }));
  }
}

function decoded(messageText: string): unknown {
  try {
    return JSON.parse(Buffer.from(messageText, 'base64').toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
