import type { MessageQueue } from '../../../src/services/ports/MessageQueue.js';

/** Remembers what was sent and with which delay, for unit tests of services. */
export class InMemoryQueue<T> implements MessageQueue<T> {
  readonly sent: { readonly message: T; readonly visibilityDelaySeconds: number }[] = [];

  send(message: T, visibilityDelaySeconds: number): Promise<void> {
    this.sent.push({ message: structuredClone(message), visibilityDelaySeconds });
    return Promise.resolve();
  }
}
