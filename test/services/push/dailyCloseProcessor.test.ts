import { describe, expect, it } from 'vitest';
import type { DailyClose } from '../../../src/domain/model/payloads.js';
import { dailyCloseProcessor } from '../../../src/services/push/dailyCloseProcessor.js';
import type { ReconcileMessage } from '../../../src/services/ReconcileMessage.js';
import { buildDailyClose, buildUsdStore } from '../../fixtures/masterDataFixtures.js';
import { InMemoryDayCloses } from '../../support/memory/InMemoryDayCloses.js';
import { InMemoryQueue } from '../../support/memory/InMemoryQueue.js';
import { InMemoryReconciliations } from '../../support/memory/InMemoryReconciliations.js';
import { InMemoryStoreMasterData } from '../../support/memory/InMemoryStoreMasterData.js';

/*
 * How a daily close is applied: the close, the day's RECEIVED mark and the reconcile message go
 * side by side when the message is delayed, and the message never becomes runnable before both
 * rows are written (else its run would find no such close and the day would stay RECEIVED).
 */

const partnerId = 'p-close';

/** The three writes, each held until the test lets them finish, noting what it saw when it ran. */
function setUp(reconcileDelaySeconds: number) {
  const stores = new InMemoryStoreMasterData();
  const closes = new InMemoryDayCloses();
  const results = new InMemoryReconciliations();
  const queue = new InMemoryQueue<ReconcileMessage>();
  const events: string[] = [];
  let release: () => void = () => undefined;
  let released = new Promise<void>((resolve) => (release = resolve));
  let elapsed = 0;
  /** How much real time a close write takes, as the processor's elapsed-time source sees it. */
  let closeWriteMs = 0;
  /** For each message sent: whether both rows named its close by then. */
  const rowsAtSend: boolean[] = [];
  const processor = dailyCloseProcessor({
    stores,
    closes: {
      get: (...args) => closes.get(...args),
      async putIfLatest(id, stored) {
        events.push('close');
        await released;
        elapsed += closeWriteMs;
        return closes.putIfLatest(id, stored);
      },
    },
    results: Object.assign(Object.create(results) as InMemoryReconciliations, {
      async markReceived(...args: Parameters<InMemoryReconciliations['markReceived']>) {
        events.push('day');
        await released;
        return results.markReceived(...args);
      },
    }),
    reconcileQueue: {
      async send(message, delay) {
        events.push('message');
        const [close, day] = await Promise.all([
          closes.get(message.partnerId, message.storeId, message.businessDate),
          results.get(message.partnerId, message.storeId, message.businessDate),
        ]);
        rowsAtSend.push(close?.close.batch_id === message.closeBatchId && day?.closeBatchId === message.closeBatchId);
        await queue.send(message, delay);
      },
    },
    reconcileDelaySeconds,
    clock: () => new Date('2026-03-02T10:00:00Z'),
    elapsedMs: () => elapsed,
  });
  const apply = (close: DailyClose, receivedAt: string) => processor.apply({ partnerId, body: close, receivedAt });
  return {
    stores,
    closes,
    results,
    queue,
    events,
    rowsAtSend,
    apply,
    release: () => {
      release();
    },
    hold: () => {
      released = new Promise<void>((resolve) => (release = resolve));
    },
    setCloseWriteMs: (ms: number) => {
      closeWriteMs = ms;
    },
  };
}

/** Lets every promise that can settle without the test settle. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('dailyCloseProcessor.apply', () => {
  it('with a delayed message, starts the close, the RECEIVED mark and the message together, and sends it once', async () => {
    const t = setUp(900);
    const close = buildDailyClose();
    const applying = t.apply(close, '2026-03-02T09:00:00.000Z');
    await settle();
    expect([...t.events].sort()).toEqual(['close', 'day', 'message']);
    t.release();
    await applying;
    expect(t.queue.sent).toHaveLength(1);
    expect(t.queue.sent[0]).toMatchObject({ visibilityDelaySeconds: 900, message: { closeBatchId: close.batch_id } });
    expect((await t.closes.get(partnerId, close.store_id, close.business_date))?.close.batch_id).toBe(close.batch_id);
    expect((await t.results.get(partnerId, close.store_id, close.business_date))?.status).toBe('RECEIVED');
  });

  it('sends the message again, after both rows are written, when the writes took as long as its delay', async () => {
    const t = setUp(900);
    t.setCloseWriteMs(900_000);
    const close = buildDailyClose();
    const applying = t.apply(close, '2026-03-02T09:00:00.000Z');
    t.release();
    await applying;
    expect(t.queue.sent).toHaveLength(2);
    expect(t.queue.sent.map((s) => s.message)).toEqual([t.queue.sent[0]?.message, t.queue.sent[0]?.message]);
    expect(t.rowsAtSend.at(-1)).toBe(true);
  });

  it('with no delay, sends the message only once both rows are written', async () => {
    const t = setUp(0);
    t.release();
    const close = buildDailyClose();
    await t.apply(close, '2026-03-02T09:00:00.000Z');
    expect(t.events).toEqual(['close', 'day', 'message']);
    expect(t.rowsAtSend).toEqual([true]);
  });

  it('warns STORE_NOT_UPLOADED while HQ has no master data for the store, with and without a delay', async () => {
    for (const delay of [900, 0]) {
      const t = setUp(delay);
      t.release();
      const close = buildDailyClose();
      const before = await t.apply(close, '2026-03-02T09:00:00.000Z');
      expect(before.map((w) => [w.code, w.path])).toEqual([['STORE_NOT_UPLOADED', 'store_id']]);
      await t.stores.upsert(partnerId, [buildUsdStore(close.store_id)], new Date());
      expect(await t.apply({ ...close, batch_id: 'close-after' }, '2026-03-02T09:01:00.000Z')).toEqual([]);
    }
  });

  it('a close applied side by side with a later one leaves both rows naming the later one, in either order', async () => {
    for (const laterFirst of [true, false]) {
      const t = setUp(900);
      t.release();
      const earlier = { ...buildDailyClose(), batch_id: 'close-a' };
      const later = { ...buildDailyClose(), batch_id: 'close-b', trade_record_count: 4 };
      // The same instant: the order falls back on the batch_id, the same for both rows.
      const receivedAt = '2026-03-02T09:00:00.000Z';
      const applies = laterFirst ? [later, earlier] : [earlier, later];
      await Promise.all(applies.map((close) => t.apply(close, receivedAt)));
      expect((await t.closes.get(partnerId, earlier.store_id, earlier.business_date))?.close.batch_id).toBe('close-b');
      expect((await t.results.get(partnerId, earlier.store_id, earlier.business_date))?.closeBatchId).toBe('close-b');
    }
  });
});
