/**
 * The adapter every queue function runs in: what a failure leaves in the log (the error's class and
 * the first line of its message, never the rest) and when it counts a message as poisoned.
 */
import { InvocationContext } from '@azure/functions';
import { describe, expect, it } from 'vitest';
import { createQueueHandler } from '../../src/queue/createQueueHandler.js';

const isText = (value: unknown): value is string => typeof value === 'string';

function invoke(
  handle: () => Promise<string>,
  value: unknown,
  dequeueCount: number,
  subjectOf?: (message: string) => Record<string, string>,
) {
  const lines: string[] = [];
  const context = new InvocationContext({
    functionName: 'work',
    triggerMetadata: { dequeueCount },
    logHandler: (level, ...args) => lines.push(`${level} ${args.join(' ')}`),
  });
  const run = createQueueHandler('work', isText, handle, subjectOf)(value, context);
  return { run, lines };
}

describe('createQueueHandler', () => {
  it('logs the outcome by name with the dequeue count', async () => {
    const { run, lines } = invoke(() => Promise.resolve('done'), 'hello', 2);
    await run;
    expect(lines).toContain('information work: done (dequeue 2)');
  });

  it('logs a failure as its class and first line, and rethrows it so the host retries', async () => {
    const error = new RangeError('the day is out of range\nstorage answered: <body that must not be logged>');
    const { run, lines } = invoke(() => Promise.reject(error), 'hello', 1);
    await expect(run).rejects.toBe(error);
    expect(lines).toEqual(['warning work: failed on dequeue 1: RangeError: the day is out of range']);
  });

  it('names what the message is about in its lines and in the poison count, encoded as metric values are', async () => {
    const subjectOf = (message: string) => ({ partner: 'acme', store: `S 1|${message}` });
    const done = invoke(() => Promise.resolve('done'), 'x', 1, subjectOf);
    await done.run;
    expect(done.lines).toEqual(['information work: done (dequeue 1) partner=acme store=S%201%7Cx']);
    const failed = invoke(() => Promise.reject(new Error('storage refused')), 'x', 5, subjectOf);
    await expect(failed.run).rejects.toThrow('storage refused');
    expect(failed.lines).toEqual([
      'warning work: failed on dequeue 5: Error: storage refused partner=acme store=S%201%7Cx',
      'information metric poison_message 1 function=work dequeue=5 partner=acme store=S%201%7Cx',
    ]);
  });

  it('fails a message of the wrong shape, and counts it as poisoned on the last dequeue', async () => {
    const { run, lines } = invoke(() => Promise.resolve('never'), { not: 'text' }, 5);
    await expect(run).rejects.toThrow('the message is not of the expected shape');
    expect(lines[0]).toBe('warning work: failed on dequeue 5: Error: the message is not of the expected shape');
    expect(lines.some((line) => line.includes('poison_message'))).toBe(true);
  });
});
