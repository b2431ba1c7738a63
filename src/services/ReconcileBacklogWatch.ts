import type { QueueClient } from '@azure/storage-queue';
import type { Telemetry } from '../observability/Telemetry.js';
import type { Clock } from './ports/Clock.js';

/** Messages looked at per run: the most a peek returns. */
const peeked = 32;

/**
 * How long the reconcile messages that are visible, and so could be taken, have been due without
 * being taken. The lag alert reads a run's lateness when its result is stored; runs that never
 * start (the queue trigger's connection or role wrong, the instances stuck) store nothing and
 * would never be told. A message is due from its `dueAt` (a close's or a late batch's run), or
 * from when it was sent when it names none.
 */
export class ReconcileBacklogWatch {
  constructor(
    private readonly queue: QueueClient,
    private readonly clock: Clock,
  ) {}

  /** Writes `reconcile_waiting_seconds` (0 when no message waits); resolves with the seconds and the messages seen. */
  async report(telemetry: Telemetry): Promise<{ waitingSeconds: number; messages: number }> {
    const { peekedMessageItems: messages } = await this.queue.peekMessages({ numberOfMessages: peeked });
    const now = this.clock().getTime();
    const dues = messages.map((message) => dueAt(message.messageText) ?? message.insertedOn.getTime());
    const waitingSeconds = dues.length === 0 ? 0 : Math.max(0, Math.floor((now - Math.min(...dues)) / 1000));
    telemetry.metric('reconcile_waiting_seconds', waitingSeconds, { messages: messages.length });
    return { waitingSeconds, messages: messages.length };
  }
}

/** The `dueAt` a message names (base64 JSON, as the service sends them), if it names a valid one. */
function dueAt(messageText: string): number | undefined {
  try {
    const body = JSON.parse(Buffer.from(messageText, 'base64').toString('utf8')) as { dueAt?: unknown };
    const due = typeof body.dueAt === 'string' ? Date.parse(body.dueAt) : Number.NaN;
    return Number.isNaN(due) ? undefined : due;
  } catch {
    return undefined;
  }
}
