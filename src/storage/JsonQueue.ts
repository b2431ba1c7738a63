import type { QueueClient } from '@azure/storage-queue';

/**
 * Sends JSON messages base64-encoded, the encoding the Functions queue trigger decodes by default.
 * Messages live for 7 days (the service's default), which outlasts any retry.
 */
export class JsonQueue<T> {
  constructor(private readonly queue: QueueClient) {}

  async send(message: T, visibilityDelaySeconds: number): Promise<void> {
    await this.queue.sendMessage(Buffer.from(JSON.stringify(message), 'utf8').toString('base64'), {
      visibilityTimeout: visibilityDelaySeconds,
    });
  }
}
