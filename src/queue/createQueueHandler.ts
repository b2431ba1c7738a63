import type { InvocationContext, StorageQueueHandler } from '@azure/functions';
import { describeError } from '../observability/describeError.js';
import { withInvocationTelemetry } from '../observability/invocationTelemetry.js';
import { dimensionPairs, logTelemetry, type Telemetry } from '../observability/Telemetry.js';

/**
 * host.json `extensions.queues.maxDequeueCount`: the dequeue after which the host moves a failing
 * message to the poison queue (the infra test keeps the two equal).
 * @internal read by the tests, and kept equal to host.json by the infra test.
 */
export const maxDequeueCount = 5;

/**
 * The names of a queue message's trigger metadata. In Azure the top-level properties of a JSON
 * message are binding data too and replace metadata of the same name (azure-functions-nodejs-library#459),
 * so a message type of this service never has a property so named: `dequeueCount` below is the host's.
 * @internal read by the test that checks no message type has a property so named.
 */
export const queueMetadataNames = [
  'id',
  'dequeueCount',
  'insertionTime',
  'expirationTime',
  'nextVisibleTime',
  'popReceipt',
  'queueTrigger',
] as const;

/** Where a queue function reports what went wrong without failing the message. */
export interface QueueLog {
  warn(line: string): void;
}

/** The ids that say what a message is about (partner, store, date, event), for its log lines. */
export type MessageSubject = Readonly<Record<string, string | undefined>>;

/**
 * The thin adapter around every queue function: the message arrives decoded (base64 JSON), the
 * outcome is logged with the message's `subjectOf` ids (never its body), and a failure is rethrown
 * so the host retries the message and moves it to the poison queue after the fifth dequeue. The
 * handler gets telemetry writing to the invocation's log, which reaches Application Insights.
 */
export function createQueueHandler<T>(
  name: string,
  isMessage: (value: unknown) => value is T,
  handle: (message: T, telemetry: Telemetry, log: QueueLog) => Promise<string>,
  /** What the message is about: a failing or poisoned message is then found by the day or event it names. */
  subjectOf?: (message: T) => MessageSubject,
): StorageQueueHandler {
  return async (value: unknown, context: InvocationContext): Promise<void> => {
    const dequeueCount = Number(context.triggerMetadata?.dequeueCount ?? 1);
    const telemetry = logTelemetry((line) => {
      context.info(line);
    });
    let subject: MessageSubject = {};
    try {
      // A malformed message fails every time and so ends in the poison queue, where HQ sees it.
      if (!isMessage(value)) throw new Error('the message is not of the expected shape');
      subject = subjectOf?.(value) ?? {};
      const outcome = await withInvocationTelemetry(telemetry, () =>
        handle(value, telemetry, {
          warn: (line) => {
            context.warn(`${name}: ${line}`);
          },
        }),
      );
      context.info(`${name}: ${outcome} (dequeue ${dequeueCount})${subjectText(subject)}`);
    } catch (error) {
      context.warn(`${name}: failed on dequeue ${dequeueCount}: ${describeError(error)}${subjectText(subject)}`);
      if (dequeueCount >= maxDequeueCount) telemetry.metric('poison_message', 1, { function: name, dequeue: dequeueCount, ...subject });
      throw error;
    }
  };
}

/** ` key=value` pairs, encoded as in metric lines, so a partner's id cannot break the line. */
function subjectText(subject: MessageSubject): string {
  return dimensionPairs(subject)
    .map((pair) => ` ${pair}`)
    .join('');
}
