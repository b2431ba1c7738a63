import type { InvocationContext, StorageQueueHandler } from '@azure/functions';
import { describeError } from '../observability/describeError.js';
import { withInvocationTelemetry } from '../observability/invocationTelemetry.js';
import { logTelemetry, type Telemetry } from '../observability/Telemetry.js';

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

/**
 * The thin adapter around every queue function: the message arrives decoded (base64 JSON), the
 * outcome is logged by name only, and a failure is rethrown so the host retries the message and
 * moves it to the poison queue after the fifth dequeue. The handler gets telemetry writing to the
 * invocation's log, which reaches Application Insights.
 */
export function createQueueHandler<T>(
  name: string,
  isMessage: (value: unknown) => value is T,
  handle: (message: T, telemetry: Telemetry, log: QueueLog) => Promise<string>,
): StorageQueueHandler {
  return async (value: unknown, context: InvocationContext): Promise<void> => {
    const dequeueCount = Number(context.triggerMetadata?.dequeueCount ?? 1);
    const telemetry = logTelemetry((line) => {
      context.info(line);
    });
    try {
      // A malformed message fails every time and so ends in the poison queue, where HQ sees it.
      if (!isMessage(value)) throw new Error('the message is not of the expected shape');
      const outcome = await withInvocationTelemetry(telemetry, () =>
        handle(value, telemetry, {
          warn: (line) => {
            context.warn(`${name}: ${line}`);
          },
        }),
      );
      context.info(`${name}: ${outcome} (dequeue ${dequeueCount})`);
    } catch (error) {
      context.warn(`${name}: failed on dequeue ${dequeueCount}: ${describeError(error)}`);
      if (dequeueCount >= maxDequeueCount) telemetry.metric('poison_message', 1, { function: name, dequeue: dequeueCount });
      throw error;
    }
  };
}
