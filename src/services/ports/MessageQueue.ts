/** A queue of JSON messages, each delivered no sooner than its visibility delay. */
export interface MessageQueue<T> {
  send(message: T, visibilityDelaySeconds: number): Promise<void>;
}
