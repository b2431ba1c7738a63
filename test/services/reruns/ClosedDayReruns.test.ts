/**
 * Closed days reconciled again after a change, on the storage emulator: the change only queues a
 * message, the days are scheduled a page per message, and the chain of pages ends even while the
 * runs it schedules note their days again.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ReconcileMessage } from '../../../src/services/ReconcileMessage.js';
import { ClosedDayReruns, notesPerRerunMessage } from '../../../src/services/reruns/ClosedDayReruns.js';
import type { ClosedDayRerunMessage } from '../../../src/services/reruns/ClosedDayRerunMessage.js';
import { DayCloseRepository } from '../../../src/storage/DayCloseRepository.js';
import { PaymentTypeUsageRepository } from '../../../src/storage/PaymentTypeUsageRepository.js';
import { UnmappedUsageRepository } from '../../../src/storage/UnmappedUsageRepository.js';
import { buildDailyClose } from '../../fixtures/masterDataFixtures.js';
import { allNotes } from '../../support/allNotes.js';
import { azuriteTable } from '../../support/azuriteClients.js';
import { InMemoryQueue } from '../../support/memory/InMemoryQueue.js';

const tableName = (): string => `t${randomUUID().replace(/-/g, '').slice(0, 20)}`;
const now = new Date('2026-03-10T12:00:00.000Z');

let closes: DayCloseRepository;
let paymentTypes: PaymentTypeUsageRepository;
let unmappedCodes: UnmappedUsageRepository;

beforeAll(async () => {
  closes = new DayCloseRepository(await azuriteTable(tableName()));
  paymentTypes = new PaymentTypeUsageRepository(await azuriteTable(tableName()));
  unmappedCodes = new UnmappedUsageRepository(await azuriteTable(tableName()));
});

/** Store-days S-<n> on 2026-03-01, n from 0. */
const storeDay = (n: number) => ({ storeId: `S-${String(n).padStart(4, '0')}`, businessDate: '2026-03-01' });

async function closeDay(partnerId: string, n: number): Promise<void> {
  const { storeId, businessDate } = storeDay(n);
  await closes.putIfLatest(partnerId, {
    close: { ...buildDailyClose(), store_id: storeId, business_date: businessDate },
    receivedAt: now.toISOString(),
  });
}

/** Store-days 0 … count-1 closed, each noted as using the payment type. */
async function closedDaysUsing(partnerId: string, paymentType: string, count: number): Promise<void> {
  for (let n = 0; n < count; n++) {
    await paymentTypes.record(partnerId, storeDay(n).storeId, storeDay(n).businessDate, [paymentType]);
    await closeDay(partnerId, n);
  }
}

/** The mapping in effect in a test: an upload's batch id and the codes it maps, changed at will. */
interface TestMapping {
  batchId: string;
  codes: readonly string[];
}

function setUp(mapping: TestMapping = { batchId: 'map-1', codes: [] }) {
  const reconcileQueue = new InMemoryQueue<ReconcileMessage>();
  const rerunQueue = new InMemoryQueue<ClosedDayRerunMessage>();
  const reruns = new ClosedDayReruns({
    unmappedCodes,
    paymentTypes,
    mappingInEffect: () => Promise.resolve({ batchId: mapping.batchId, byCode: new Map(mapping.codes.map((code) => [code, 'SALE'])) }),
    closes,
    reconcileQueue,
    rerunQueue,
    clock: () => now,
  });
  /** Runs the queued rerun messages, and those they send, as the queue function would; how many ran. */
  const drain = async (): Promise<number> => {
    let ran = 0;
    while (rerunQueue.sent.length > 0) {
      const { message } = rerunQueue.sent.shift()!;
      await reruns.runPage(message);
      ran += 1;
    }
    return ran;
  };
  const scheduledDays = () => reconcileQueue.sent.map(({ message }) => message.storeId).sort();
  return { reruns, reconcileQueue, rerunQueue, drain, scheduledDays };
}

describe('ClosedDayReruns', () => {
  it('a direction change queues one message; the days that used the type are scheduled a page per message, each once', async () => {
    const partnerId = `p-${randomUUID()}`;
    const days = 2 * notesPerRerunMessage + 50;
    for (let n = 0; n < days; n++) {
      await paymentTypes.record(partnerId, storeDay(n).storeId, storeDay(n).businessDate, ['HOUSE']);
      // Ten noted days have no close any more to reconcile against (nothing to schedule).
      if (n >= 10) await closeDay(partnerId, n);
    }
    await paymentTypes.record(partnerId, 'OTHER', '2026-03-01', ['VOUCHER']);
    const { reruns, reconcileQueue, rerunQueue, drain, scheduledDays } = setUp();

    await reruns.afterDirectionSet(partnerId, 'HOUSE');
    // What the HQ request waits on: one message, no day scheduled yet.
    expect(rerunQueue.sent).toEqual([{ message: { kind: 'direction', partnerId, paymentType: 'HOUSE' }, visibilityDelaySeconds: 0 }]);
    expect(reconcileQueue.sent).toEqual([]);

    expect(await drain()).toBe(3);
    expect(scheduledDays()).toEqual(Array.from({ length: days - 10 }, (_, i) => storeDay(i + 10).storeId));
    // Days are scheduled several at once, in no set order: the first noted day's message, wherever it is.
    const first = reconcileQueue.sent.find(({ message }) => message.storeId === storeDay(10).storeId)!.message;
    const [firstNote] = await allNotes((after) => paymentTypes.listDaysPage(partnerId, 'HOUSE', after, 1));
    expect(first).toEqual({
      partnerId,
      storeId: storeDay(10).storeId,
      businessDate: '2026-03-01',
      closeBatchId: buildDailyClose().batch_id,
      runId: expect.stringMatching(/^direction-/) as string,
      dueAt: now.toISOString(),
      rerunNotes: [{ kind: 'paymentType', paymentType: 'HOUSE', etag: firstNote!.etag }],
    });
    // The scheduled days' notes are left for their runs; those of days without a close are forgotten.
    expect(await allNotes((after) => paymentTypes.listDaysPage(partnerId, 'HOUSE', after, 1000))).toHaveLength(days - 10);
    expect(await allNotes((after) => paymentTypes.listDaysPage(partnerId, 'VOUCHER', after, 1000))).toHaveLength(1);
  });

  it('ends while the runs it schedules note their days again', async () => {
    const partnerId = `p-${randomUUID()}`;
    const days = notesPerRerunMessage + 30;
    await closedDaysUsing(partnerId, 'HOUSE', days);
    const { reruns, reconcileQueue, drain, scheduledDays } = setUp();
    // Each scheduled run starts at once and notes its day again.
    const send = reconcileQueue.send.bind(reconcileQueue);
    reconcileQueue.send = async (message, delay) => {
      await send(message, delay);
      await paymentTypes.record(partnerId, message.storeId, message.businessDate, ['HOUSE']);
    };

    await reruns.afterDirectionSet(partnerId, 'HOUSE');
    expect(await drain()).toBe(2);
    expect(scheduledDays()).toHaveLength(days);
    expect(new Set(scheduledDays()).size).toBe(days);
    expect(await allNotes((after) => paymentTypes.listDaysPage(partnerId, 'HOUSE', after, 1000))).toHaveLength(days);
  });

  it('a mapping upload schedules only the days whose noted codes the mapping in effect maps, each with those notes', async () => {
    const partnerId = `p-${randomUUID()}`;
    for (let n = 0; n < 6; n++) {
      await unmappedCodes.record(partnerId, storeDay(n).storeId, storeDay(n).businessDate, n < 4 ? ['X99', 'Y77', 'Z55'] : ['Y77']);
      await closeDay(partnerId, n);
    }
    const { reruns, drain, scheduledDays, reconcileQueue } = setUp({ batchId: 'map-1', codes: ['S01', 'X99', 'Z55'] });

    await reruns.afterMappingUpload(partnerId, 'map-1');
    expect(await drain()).toBe(1);
    expect(scheduledDays()).toEqual([0, 1, 2, 3].map((n) => storeDay(n).storeId));
    const notes = await allNotes((after) => unmappedCodes.listPage(partnerId, after, 1000));
    for (const { message } of reconcileQueue.sent) {
      expect(message.runId).toMatch(/^remap-/);
      const ofDay = notes.filter((u) => u.storeId === message.storeId && u.sourceCode !== 'Y77');
      expect(message.rerunNotes).toEqual(ofDay.map((u) => ({ kind: 'unmapped', sourceCode: u.sourceCode, etag: u.etag })));
    }
    // Left for the runs to forget once they have written their days.
    expect(notes).toHaveLength(14);
  });

  it("uploads in quick succession: an earlier upload's chain stops once a later one is in effect", async () => {
    const partnerId = `p-${randomUUID()}`;
    const days = notesPerRerunMessage + 20;
    for (let n = 0; n < days; n++) {
      await unmappedCodes.record(partnerId, storeDay(n).storeId, storeDay(n).businessDate, ['X99']);
      await closeDay(partnerId, n);
    }
    const mapping = { batchId: 'map-1', codes: ['X99'] };
    const { reruns, rerunQueue, drain, scheduledDays } = setUp(mapping);
    await reruns.afterMappingUpload(partnerId, 'map-1');
    // The first page of map-1's chain runs; then map-2 is uploaded before the next page.
    await reruns.runPage(rerunQueue.sent.shift()!.message);
    expect(scheduledDays()).toHaveLength(notesPerRerunMessage);
    mapping.batchId = 'map-2';
    await reruns.afterMappingUpload(partnerId, 'map-2');
    // map-1's next page stops; map-2's chain goes through every note, 2 pages.
    const stopped = await reruns.runPage(rerunQueue.sent.shift()!.message);
    expect(stopped).toBe(`remap for partner ${partnerId}: a later mapping upload is in effect; its own reruns cover the rest`);
    expect(await drain()).toBe(2);
    expect(scheduledDays()).toHaveLength(notesPerRerunMessage + days);
    expect(new Set(scheduledDays()).size).toBe(days);
  });

  it('a page cut off while it schedules is handled again when redelivered, and the chain still ends', async () => {
    const partnerId = `p-${randomUUID()}`;
    const days = notesPerRerunMessage + 1;
    await closedDaysUsing(partnerId, 'HOUSE', days);
    const { reruns, reconcileQueue, rerunQueue, drain, scheduledDays } = setUp();
    const send = reconcileQueue.send.bind(reconcileQueue);
    let sends = 0;
    reconcileQueue.send = (message, delay) => (++sends === 50 ? Promise.reject(new Error('cut off')) : send(message, delay));
    const first: ClosedDayRerunMessage = { kind: 'direction', partnerId, paymentType: 'HOUSE' };
    await expect(reruns.runPage(first)).rejects.toThrow('cut off');
    // The next page is not sent before this one is done.
    expect(rerunQueue.sent).toEqual([]);
    expect(scheduledDays().length).toBeLessThan(notesPerRerunMessage);
    // The host delivers the message again: its whole page is scheduled, then the chain goes on.
    await reruns.runPage(first);
    expect(await drain()).toBe(1);
    expect(new Set(scheduledDays()).size).toBe(days);
  });
});
