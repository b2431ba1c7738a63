import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MetricName } from '../../src/observability/Telemetry.js';
import { ReconcileBacklogWatch } from '../../src/services/ReconcileBacklogWatch.js';
import { JsonQueue } from '../../src/storage/JsonQueue.js';
import { azuriteQueue } from '../support/azuriteClients.js';
import { testClock } from '../support/testClock.js';

function recording() {
  const figures: { name: MetricName; value: number; messages: unknown }[] = [];
  return {
    figures,
    telemetry: {
      metric: (name: MetricName, value: number, dims?: Record<string, unknown>) => figures.push({ name, value, messages: dims?.messages }),
    },
  };
}

describe('ReconcileBacklogWatch', () => {
  it('says how long the longest-due message that could be taken has waited; a message still hidden does not count', async () => {
    const queue = await azuriteQueue(`backlog${randomUUID().replaceAll('-', '').slice(0, 12)}`);
    const clock = testClock(new Date('2026-03-02T12:00:00Z'));
    const reconcileQueue = new JsonQueue(queue);
    const watch = new ReconcileBacklogWatch(reconcileQueue, clock);
    const { figures, telemetry } = recording();

    expect(await watch.report(telemetry)).toEqual({ waitingSeconds: 0, messages: 0 });
    await reconcileQueue.send({ partnerId: 'p', dueAt: '2026-03-02T11:59:00.000Z' }, 0);
    await reconcileQueue.send({ partnerId: 'p', dueAt: '2026-03-02T11:50:00.000Z' }, 0);
    // Hidden for a minute: not something a trigger could have taken yet.
    await reconcileQueue.send({ partnerId: 'p', dueAt: '2026-03-01T00:00:00.000Z' }, 60);
    expect(await watch.report(telemetry)).toEqual({ waitingSeconds: 600, messages: 2 });
    expect(figures).toEqual([
      { name: 'reconcile_waiting_seconds', value: 0, messages: 0 },
      { name: 'reconcile_waiting_seconds', value: 600, messages: 2 },
    ]);
    // The peek takes nothing off the queue.
    expect((await queue.getProperties()).approximateMessagesCount).toBe(3);
  });

  it('counts a message that names no due time, or one it cannot read, from when it was sent', async () => {
    const queue = await azuriteQueue(`backlog${randomUUID().replaceAll('-', '').slice(0, 12)}`);
    await new JsonQueue(queue).send({ partnerId: 'p' }, 0);
    await queue.sendMessage('not base64 JSON');
    const clock = testClock(new Date());
    clock.advance(120_000);
    const { waitingSeconds, messages } = await new ReconcileBacklogWatch(new JsonQueue(queue), clock).report(recording().telemetry);
    expect(messages).toBe(2);
    expect(waitingSeconds).toBeGreaterThanOrEqual(119);
    expect(waitingSeconds).toBeLessThanOrEqual(125);
  });
});
