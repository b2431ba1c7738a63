/**
 * Runs the captured queue-triggered functions locally the way the Functions queue trigger does:
 * polls each queue, decodes base64 message text (JSON when it is JSON, else the string), calls the
 * handler, deletes the message on success, makes it visible again after host.json's
 * `visibilityTimeout` on failure, and moves it to `<queue>-poison` once it has been dequeued
 * `maxDequeueCount` times. While a handler runs its message stays hidden (10 minutes, renewed).
 * An empty queue is polled less and less often, up to host.json's `maxPollingInterval` apart (see
 * PollingBackoff).
 */
import { randomUUID } from 'node:crypto';
import { InvocationContext } from '@azure/functions';
import type { QueueClient, QueueServiceClient, ReceivedMessageItem } from '@azure/storage-queue';
import { poisonQueueName } from '../storage/storageNames.js';
import type { CapturedFunction, CapturedQueueFunction } from './functionsCoreStandIn.js';
import { reportPastFunctionTimeout } from './reportPastFunctionTimeout.js';
import { describeFailure, invocationLogHandler } from './LocalHostLogger.js';
import type { LocalHostLogger } from './LocalHostLogger.js';
import { minPollingIntervalMs, PollingBackoff } from './PollingBackoff.js';
import { oneProcessorNewBatchThreshold, readHostSettings, type HostSettings } from './readHostSettings.js';

/** What one poll of a queue did, as handed to the `onPoll` option. */
export interface QueuePoll {
  readonly queueName: string;
  /** Messages of this queue still running when the poll was made. */
  readonly running: number;
  /** Messages received: 0 when the queue was empty or the poll failed. */
  readonly received: number;
  /** The queue could not be reached. */
  readonly failed: boolean;
  /**
   * The pause before the next poll of this queue. 0 after a poll that received messages: the next
   * one follows as soon as the running messages drop to newBatchThreshold.
   */
  readonly nextPollInMs: number;
}

export interface QueuePollerOptions {
  /** Captured registrations; only the queue-triggered ones are run. */
  readonly functions: readonly CapturedFunction[];
  /** Client for the storage account behind every function's `connection` setting. */
  readonly queueServiceClient: QueueServiceClient;
  readonly logger: LocalHostLogger;
  /** Default: host.json `extensions.queues.maxDequeueCount` (5). */
  readonly maxDequeueCount?: number;
  /** Messages fetched and run in parallel per poll. Default: host.json `extensions.queues.batchSize`. */
  readonly batchSize?: number;
  /**
   * Another batch is fetched once the messages still running drop to this number, as the Functions
   * queue trigger does; at most batchSize + newBatchThreshold run at once. Default: host.json
   * `extensions.queues.newBatchThreshold` when the batch size is host.json's too, else half the
   * batch size (the trigger's default on one processor).
   */
  readonly newBatchThreshold?: number;
  /**
   * How long a message whose handler failed stays hidden before it is retried, counted from the
   * failure. Default: host.json `extensions.queues.visibilityTimeout`, else 0 (the trigger's default).
   */
  readonly visibilityTimeoutSeconds?: number;
  /** host.json `functionTimeout` in milliseconds: a run past it is reported (see reportPastFunctionTimeout). */
  readonly functionTimeoutMs?: number;
  /**
   * How long a received message stays hidden while its handler runs, pushed out again every half
   * of it: the queue trigger's fixed 10 minutes (so a message of a worker that died reappears
   * after at most that long). Default: 600.
   */
  readonly runVisibilitySeconds?: number;
  /**
   * Longest pause between polls of an empty queue (or of one that cannot be reached), at least
   * 100 ms. Default: host.json `extensions.queues.maxPollingInterval`, else 1 minute.
   */
  readonly maxPollingIntervalMs?: number;
  /** Told of every poll: what it received and how long the poller now waits. */
  readonly onPoll?: (poll: QueuePoll) => void;
}

/** The queue trigger receives every message hidden for 10 minutes, renewed while its function runs. */
const queueTriggerRunVisibilitySeconds = 600;

export class QueuePoller {
  readonly #functions: readonly CapturedQueueFunction[];
  readonly #service: QueueServiceClient;
  readonly #logger: LocalHostLogger;
  readonly #maxDequeueCount: number;
  readonly #batchSize: number;
  readonly #newBatchThreshold: number;
  readonly #visibilityTimeoutSeconds: number;
  readonly #runVisibilitySeconds: number;
  readonly #functionTimeoutMs: number;
  readonly #maxPollingIntervalMs: number;
  readonly #onPoll: ((poll: QueuePoll) => void) | undefined;
  #running = false;
  #loops: Promise<void>[] = [];
  readonly #wakers = new Set<() => void>();

  constructor(options: QueuePollerOptions) {
    this.#functions = options.functions.filter((fn): fn is CapturedQueueFunction => fn.kind === 'queue');
    this.#service = options.queueServiceClient;
    this.#logger = options.logger;
    // host.json is read only when an option is left to it, and then once.
    let hostSettings: HostSettings | undefined;
    const host = (): HostSettings => (hostSettings ??= readHostSettings());
    this.#maxDequeueCount = options.maxDequeueCount ?? host().maxDequeueCount;
    this.#batchSize = Math.min(Math.max(options.batchSize ?? host().queueBatchSize, 1), 32);
    const defaultThreshold =
      options.batchSize === undefined ? host().queueNewBatchThreshold : oneProcessorNewBatchThreshold(this.#batchSize);
    this.#newBatchThreshold = Math.max(options.newBatchThreshold ?? defaultThreshold, 0);
    this.#visibilityTimeoutSeconds = Math.max(options.visibilityTimeoutSeconds ?? host().queueVisibilityTimeoutSeconds, 0);
    this.#runVisibilitySeconds = Math.max(options.runVisibilitySeconds ?? queueTriggerRunVisibilitySeconds, 1);
    this.#functionTimeoutMs = options.functionTimeoutMs ?? host().functionTimeoutSeconds * 1000;
    this.#maxPollingIntervalMs = options.maxPollingIntervalMs ?? host().queueMaxPollingIntervalMs;
    if (!(this.#maxPollingIntervalMs >= minPollingIntervalMs)) {
      throw new RangeError(
        `maxPollingIntervalMs must be at least ${String(minPollingIntervalMs)}, not ${String(this.#maxPollingIntervalMs)}.`,
      );
    }
    this.#onPoll = options.onPoll;
  }

  /** Creates the polled queues and their poison queues when missing, then starts polling. */
  async start(): Promise<void> {
    if (this.#running) return;
    const queueNames = new Set(this.#functions.map((fn) => fn.queueName));
    for (const queueName of queueNames) {
      await this.#service.getQueueClient(queueName).createIfNotExists();
      await this.#service.getQueueClient(poisonQueueName(queueName)).createIfNotExists();
    }
    this.#running = true;
    this.#loops = this.#functions.map((fn) => this.#pollLoop(fn));
  }

  /** Stops polling and resolves once every running handler has finished. */
  async stop(): Promise<void> {
    this.#running = false;
    for (const wake of this.#wakers) wake();
    await Promise.all(this.#loops);
    this.#loops = [];
  }

  async #pollLoop(fn: CapturedQueueFunction): Promise<void> {
    const queue = this.#service.getQueueClient(fn.queueName);
    const running = new Set<Promise<void>>();
    const backoff = new PollingBackoff(this.#maxPollingIntervalMs);
    let foundMessagesSincePause = false;
    let consecutiveFailures = 0;
    while (this.#running) {
      // Like the Functions host: no new batch while more than newBatchThreshold messages still run,
      // but no waiting for a whole batch either, so one slow message does not hold up later ones.
      if (running.size > this.#newBatchThreshold) {
        await Promise.race(running);
        continue;
      }
      const runningAtPoll = running.size;
      let messages: ReceivedMessageItem[];
      try {
        const response = await queue.receiveMessages({
          numberOfMessages: this.#batchSize,
          visibilityTimeout: this.#runVisibilitySeconds,
        });
        messages = response.receivedMessageItems;
        if (consecutiveFailures > 0) this.#logger.info(`Queue ${fn.queueName} is reachable again.`);
        consecutiveFailures = 0;
      } catch (error) {
        if (consecutiveFailures === 0) {
          this.#logger.warn(`Polling queue ${fn.queueName} failed: ${describeStorageFailure(error)}; retrying.`);
        }
        consecutiveFailures += 1;
        messages = [];
      }
      if (messages.length > 0) {
        foundMessagesSincePause = true;
        for (const message of messages) {
          const run: Promise<void> = this.#process(fn, queue, message).finally(() => running.delete(run));
          running.add(run);
        }
        this.#report({ queueName: fn.queueName, running: runningAtPoll, received: messages.length, failed: false, nextPollInMs: 0 });
        continue;
      }
      // An empty queue and an unreachable one are both polled again after the back-off, as the
      // trigger does: a storage outage is not hammered, and is noticed within maxPollingInterval.
      const pause = backoff.next(foundMessagesSincePause);
      foundMessagesSincePause = false;
      this.#report({ queueName: fn.queueName, running: runningAtPoll, received: 0, failed: consecutiveFailures > 0, nextPollInMs: pause });
      await this.#sleep(pause);
    }
    await Promise.all(running);
  }

  #report(poll: QueuePoll): void {
    try {
      this.#onPoll?.(poll);
    } catch (error) {
      this.#logger.warn(`The poll listener of queue ${poll.queueName} failed: ${describeFailure(error)}`);
    }
  }

  async #process(fn: CapturedQueueFunction, queue: QueueClient, message: ReceivedMessageItem): Promise<void> {
    const where = `message ${message.messageId} on queue ${fn.queueName}`;
    try {
      // A message already dequeued more often than allowed (a run cut short earlier) is not run again.
      if (message.dequeueCount > this.#maxDequeueCount) {
        await this.#moveToPoison(fn, queue, message, message.popReceipt);
        return;
      }
      // Text that is not base64 never reaches a function: the trigger's queue client fails to
      // decode it and its handler (QueueServiceClientProvider) moves it to the poison queue at once.
      const decoded = decodeMessageText(message.messageText);
      if (decoded === undefined) {
        this.#logger.error(`${where} is not base64-encoded; it is not run.`);
        await this.#moveToPoison(fn, queue, message, message.popReceipt);
        return;
      }
      const renewal = this.#keepInvisible(queue, message);
      let succeeded: boolean;
      try {
        succeeded = await this.#invoke(fn, message, decoded);
      } finally {
        renewal.stop();
      }
      const popReceipt = await renewal.popReceipt();
      if (succeeded) {
        await queue.deleteMessage(message.messageId, popReceipt);
      } else if (message.dequeueCount >= this.#maxDequeueCount) {
        await this.#moveToPoison(fn, queue, message, popReceipt);
      } else {
        // Released for its retry, as the trigger does: visible again once the retry delay has passed.
        await queue.updateMessage(message.messageId, popReceipt, undefined, this.#visibilityTimeoutSeconds);
      }
    } catch (error) {
      this.#logger.warn(`Completing ${where} failed: ${describeStorageFailure(error)}.`);
    }
  }

  /** Runs the handler; true when it succeeded. */
  async #invoke(fn: CapturedQueueFunction, message: ReceivedMessageItem, decoded: DecodedMessage): Promise<boolean> {
    const invocationId = randomUUID();
    const context = new InvocationContext({
      invocationId,
      functionName: fn.name,
      logHandler: invocationLogHandler(this.#logger, fn.name),
      // As in Azure, a JSON object's own top-level properties are binding data too, and replace
      // the message's metadata of the same name (azure-functions-nodejs-library#459).
      triggerMetadata: {
        id: message.messageId,
        dequeueCount: message.dequeueCount,
        insertionTime: message.insertedOn.toISOString(),
        expirationTime: message.expiresOn.toISOString(),
        nextVisibleTime: message.nextVisibleOn.toISOString(),
        popReceipt: message.popReceipt,
        queueTrigger: decoded.text,
        ...(isJsonObject(decoded.value) ? decoded.value : {}),
      },
      options: { trigger: { ...fn.triggerBinding, name: fn.triggerBindingName } },
    });
    const stopWatching = reportPastFunctionTimeout(this.#logger, this.#functionTimeoutMs, { functionName: fn.name, invocationId });
    try {
      await fn.handler(decoded.value, context);
      return true;
    } catch (error) {
      this.#logger.error(
        `Function ${fn.name} (invocation ${invocationId}) failed on message ${message.messageId} ` +
          `from queue ${fn.queueName} (dequeue ${message.dequeueCount} of ${this.#maxDequeueCount}): ${describeFailure(error)}`,
      );
      return false;
    } finally {
      stopWatching();
    }
  }

  async #moveToPoison(fn: CapturedQueueFunction, queue: QueueClient, message: ReceivedMessageItem, popReceipt: string): Promise<void> {
    const poisonName = poisonQueueName(fn.queueName);
    await this.#service.getQueueClient(poisonName).sendMessage(message.messageText);
    await queue.deleteMessage(message.messageId, popReceipt);
    this.#logger.error(
      `Message ${message.messageId} from queue ${fn.queueName} moved to ${poisonName} ` +
        `after ${message.dequeueCount} dequeues (limit ${this.#maxDequeueCount}).`,
    );
  }

  /**
   * While a handler runs, pushes the message's visibility out every half timeout so a slow run is
   * not picked up a second time. Each update yields a new pop receipt.
   */
  #keepInvisible(queue: QueueClient, message: ReceivedMessageItem): { stop(): void; popReceipt(): Promise<string> } {
    let current = message.popReceipt;
    let pending: Promise<void> = Promise.resolve();
    const timer = setInterval(
      () => {
        pending = pending.then(async () => {
          try {
            const updated = await queue.updateMessage(message.messageId, current, undefined, this.#runVisibilitySeconds);
            if (updated.popReceipt) current = updated.popReceipt;
          } catch (error) {
            this.#logger.warn(`Extending visibility of message ${message.messageId} failed: ${describeStorageFailure(error)}.`);
          }
        });
      },
      (this.#runVisibilitySeconds * 1000) / 2,
    );
    return {
      stop: () => {
        clearInterval(timer);
      },
      popReceipt: async () => {
        await pending;
        return current;
      },
    };
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      if (!this.#running) {
        resolve();
        return;
      }
      const wake = (): void => {
        clearTimeout(timer);
        this.#wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.#wakers.add(wake);
    });
  }
}

/** A decoded value that is a JSON object: its properties become trigger metadata. */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A message's text once decoded, and the value the function is given. */
interface DecodedMessage {
  readonly text: string;
  readonly value: unknown;
}

/**
 * Decodes message text as the queue trigger does with its default base64 encoding: the decoded
 * string, parsed when it is a JSON object or array. Undefined when the text is not base64.
 * @internal exported for its own unit test.
 */
export function decodeMessageText(messageText: string): DecodedMessage | undefined {
  const compact = messageText.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact)) return undefined;
  const text = Buffer.from(compact, 'base64').toString('utf8');
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { text, value: JSON.parse(text) as unknown };
    } catch {
      // Not JSON after all: handed over as the string, like the trigger does.
    }
  }
  return { text, value: text };
}

/** Status code and error code of a storage failure, without request details. */
function describeStorageFailure(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { statusCode, code, name } = error as { statusCode?: unknown; code?: unknown; name?: unknown };
    const parts = [name, statusCode, code].filter((part) => part !== undefined).map(String);
    if (parts.length > 0) return parts.join(' ');
  }
  return describeFailure(error);
}
