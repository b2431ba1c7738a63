import type { Telemetry } from '../observability/Telemetry.js';
import type { JsonQueue } from '../storage/JsonQueue.js';
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
    private readonly queue: Pick<JsonQueue<unknown>, 'peek'>,
    private readonly clock: Clock,
  ) {}

  /** Writes `reconcile_waiting_seconds` (0 when no message waits); resolves with the seconds and the messages seen. */
  async report(telemetry: Telemetry): Promise<{ waitingSeconds: number; messages: number }> {
    const messages = await this.queue.peek(peeked);
    const now = this.clock().getTime();
    const dues = messages.map((message) => dueAt(message.body) ?? message.sentAt.getTime());
    const waitingSeconds = dues.length === 0 ? 0 : Math.max(0, Math.floor((now - Math.min(...dues)) / 1000));
    telemetry.metric('reconcile_waiting_seconds', waitingSeconds, { messages: messages.length });
    return { waitingSeconds, messages: messages.length };
  }
}

/** The `dueAt` a message body names, if it names a valid one. */
function dueAt(body: unknown): number | undefined {
  const named = typeof body === 'object' && body !== null ? (body as { dueAt?: unknown }).dueAt : undefined;
  const due = typeof named === 'string' ? Date.parse(named) : Number.NaN;
  return Number.isNaN(due) ? undefined : due;
}
