/**
 * The reconcile queue delivers at least once: a message delivered twice gives one correct result,
 * a failing run is retried until it succeeds, and a message that always fails ends in the poison
 * queue with an error logged.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionTable } from '../../src/functions/functionTable.js';
import { registerFunctions } from '../../src/functions/registerFunctions.js';
import { captureRegistrations } from '../../src/localhost/functionsCoreStandIn.js';
import type { LocalHostLogger } from '../../src/localhost/LocalHostLogger.js';
import { QueuePoller } from '../../src/localhost/QueuePoller.js';
import type { AppServices } from '../../src/services/AppServices.js';
import { ConcurrencyLimit } from '../../src/services/ConcurrencyLimit.js';
import { maxConcurrentReconciliations } from '../../src/services/maxConcurrentReconciliations.js';
import { ReconciliationSlots } from '../../src/services/ReconciliationSlots.js';
import type { ReconciliationSlotWait } from '../../src/services/reconciliationSlotWait.js';
import { MappingCatalog } from '../../src/services/catalog/MappingCatalog.js';
import { DayReconciler, type DayReconcilerDependencies } from '../../src/services/DayReconciler.js';
import { DayCloseRepository } from '../../src/storage/DayCloseRepository.js';
import { JsonQueue } from '../../src/storage/JsonQueue.js';
import { MappingRepository } from '../../src/storage/MappingRepository.js';
import { PaymentDirectionRepository } from '../../src/storage/PaymentDirectionRepository.js';
import { PaymentTypeUsageRepository } from '../../src/storage/PaymentTypeUsageRepository.js';
import { RawBatchStore } from '../../src/storage/RawBatchStore.js';
import { ReconciliationRepository } from '../../src/storage/ReconciliationRepository.js';
import { TradeRecordIndex } from '../../src/storage/TradeRecordIndex.js';
import { UnmappedUsageRepository } from '../../src/storage/UnmappedUsageRepository.js';
import { eventually, reconcileQueueDrained, startTestService, type TestService } from '../support/startTestService.js';
import { getResult, push, sendClose, settled, setUpPartner } from './support/partnerFlow.js';
import { controlTotals, dailyClose, mappingBody, POS_CODES, tradeBatch } from './support/storeDayKit.js';
import { buildRecord, USD } from '../fixtures/tradeRecordFixtures.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value), 'utf8').toString('base64');

/** The reconciler's dependencies on the test run's storage, each replaceable. */
function reconcilerDeps(overrides: Partial<DayReconcilerDependencies> = {}): DayReconcilerDependencies {
  const storage = service.services.storage;
  const t = storage.tables;
  return {
    closes: new DayCloseRepository(t.dailyCloses),
    index: new TradeRecordIndex(t.tradeRecords),
    results: new ReconciliationRepository(t.reconciliations),
    mappings: new MappingCatalog(new MappingRepository(t.mappings), new RawBatchStore(storage.rawBatches)),
    paymentDirections: new PaymentDirectionRepository(t.paymentDirections),
    unmappedUsage: new UnmappedUsageRepository(t.unmappedUsage),
    paymentTypeUsage: new PaymentTypeUsageRepository(t.paymentTypeUsage),
    clock: () => new Date(),
    events: { resultStored: () => Promise.resolve() },
    ...overrides,
  };
}

/** A reconciled USD day of two sales; returns it with its totals and the message of its close. */
async function reconciledDay() {
  const { partner, days } = await setUpPartner(service, [USD]);
  const day = days[0]!;
  const records = [
    buildRecord(day, { id: 'Q-1', code: 'S01', items: [{ product: 'X1', name: 'Item', qty: 3, unit: 725 }], tip: 250 }),
    buildRecord(day, { id: 'Q-2', code: 'RT03', items: [{ product: 'X1', name: 'Item', qty: -1, unit: 725 }] }),
  ];
  await push(service, partner, tradeBatch(day, 1, records));
  const totals = controlTotals(USD, records, { mapping: POS_CODES });
  const close = dailyClose(day, 1, totals);
  await sendClose(service, partner, close);
  const message = { partnerId: partner.partnerId, storeId: day.storeId, businessDate: day.businessDate, closeBatchId: close.batch_id };
  return { partner, day, totals, close, message };
}

/** Runs the real reconcileDay function on a queue of this test only, with the given reconciler. */
async function privateReconcileQueue(
  reconciler: DayReconciler,
  logger: LocalHostLogger,
  {
    batchSize = 8,
    visibilityTimeoutSeconds = 1,
    slots,
  }: {
    batchSize?: number;
    visibilityTimeoutSeconds?: number;
    /** Slots of its own, deferring to this test's queue (default: the service's, deferring to the service's queue). */
    slots?: { readonly count: number; readonly wait: ReconciliationSlotWait };
  } = {},
) {
  const definition = functionTable.find((fn) => fn.name === 'reconcileDay');
  if (definition?.trigger !== 'storageQueue') throw new Error('reconcileDay is not a queue function');
  const queueName = `e2e-reconcile-${randomUUID().slice(0, 8)}`;
  const queue = service.services.storage.queueService.getQueueClient(queueName);
  const services = {
    ...service.services,
    reconciler,
    ...(slots ? { reconciliationSlots: new ReconciliationSlots(new ConcurrencyLimit(slots.count), new JsonQueue(queue), slots.wait) } : {}),
  } as AppServices;
  const functions = captureRegistrations(() => {
    registerFunctions([{ ...definition, queueName }], services);
  });
  const poller = new QueuePoller({
    functions,
    queueServiceClient: service.services.storage.queueService,
    logger,
    maxDequeueCount: 5,
    batchSize,
    visibilityTimeoutSeconds,
    maxPollingIntervalMs: 100,
  });
  await poller.start();
  const poison = service.services.storage.queueService.getQueueClient(`${queueName}-poison`);
  return {
    queue,
    poison,
    async stop() {
      await poller.stop();
      await Promise.all([queue.deleteIfExists(), poison.deleteIfExists()]);
    },
  };
}

function recordingLogger() {
  const lines: string[] = [];
  const logger: LocalHostLogger = {
    info: (line) => lines.push(`INFO ${line}`),
    warn: (line) => lines.push(`WARN ${line}`),
    error: (line) => lines.push(`ERROR ${line}`),
  };
  return { lines, logger };
}

describe('reconcile queue', () => {
  it('the same message delivered twice more gives one correct result', async () => {
    const { partner, day, totals, message } = await reconciledDay();
    // Two extra copies, visible at once: they may run before, beside or after the scheduled one.
    await service.services.storage.queues.reconcile.sendMessage(base64Json(message));
    await service.services.storage.queues.reconcile.sendMessage(base64Json(message));
    const result = await settled(service, partner, day);
    expect(result.status).toBe('MATCHED');
    expect(result.actual).toEqual(totals);
    // Once every copy ran, the day still has one result, the same correct one.
    await reconcileQueueDrained(service);
    const later = await getResult(service, partner, day);
    expect(later).toMatchObject({ status: 'MATCHED', expected: totals, actual: totals, differences: [] });
    const listed = await service.hq('reconciliation', 'list', '--partner', partner.partnerId);
    expect(listed.out.slice(1)).toHaveLength(1);
  });

  it('a run that fails is retried from the queue and then succeeds', async () => {
    const { partner, day, totals, message } = await reconciledDay();
    await settled(service, partner, day);

    // A results store that fails once, and a clock that marks the results this reconciler writes.
    const mark = '2030-01-02T03:04:05.000Z';
    let saves = 0;
    const results = new ReconciliationRepository(service.services.storage.tables.reconciliations);
    const flakyResults = Object.assign(Object.create(results) as ReconciliationRepository, {
      async saveResult(...args: Parameters<ReconciliationRepository['saveResult']>) {
        saves += 1;
        if (saves === 1) throw new Error('the results table did not answer');
        return results.saveResult(...args);
      },
    });
    const reconciler = new DayReconciler(reconcilerDeps({ results: flakyResults, clock: () => new Date(mark) }));
    const { lines, logger } = recordingLogger();
    const queue = await privateReconcileQueue(reconciler, logger);
    try {
      await queue.queue.sendMessage(base64Json(message));
      const result = await eventually(
        () => getResult(service, partner, day),
        (r) => r.checked_at === mark,
      );
      expect(result).toMatchObject({ status: 'MATCHED', checked_at: mark, actual: totals });
      expect(saves).toBe(2);
      // The failing day is named, so the on-call engineer finds it without reading the message.
      const subject = ` partner=${encodeURIComponent(partner.partnerId)} store=${encodeURIComponent(day.storeId)} business_date=${day.businessDate}`;
      expect(lines.some((l) => l.startsWith('WARN') && l.includes('reconcileDay: failed on dequeue 1') && l.endsWith(subject))).toBe(true);
      expect(lines.some((l) => l.startsWith('ERROR') && /failed on message .* \(dequeue 1 of 5\)/.test(l))).toBe(true);
      await eventually(
        () => Promise.resolve(lines),
        (ls) => ls.some((l) => l.includes('reconcileDay: MATCHED (dequeue 2)')),
        5_000,
      );
      expect((await queue.poison.peekMessages()).peekedMessageItems).toHaveLength(0);
    } finally {
      await queue.stop();
    }
  });

  it('a malformed message fails five times and ends in reconcile-requests-poison', async () => {
    // Any running service may take it from the shared queue; the poison queue is where it ends.
    const probe = { probe: randomUUID() };
    const text = base64Json(probe);
    await service.services.storage.queues.reconcile.sendMessage(text);
    const poison = service.services.storage.queueService.getQueueClient('reconcile-requests-poison');
    const found = await eventually(
      async () => (await poison.peekMessages({ numberOfMessages: 32 })).peekedMessageItems.some((m) => m.messageText === text),
      (yes) => yes,
      20_000,
    );
    expect(found).toBe(true);
  });

  it("runs at most maxConcurrentReconciliations at once however many messages the host's batch hands over, and each once", async () => {
    const { logger } = recordingLogger();
    const slots = service.services.reconciliationSlots.limit;
    let running = 0;
    let mostAtOnce = 0;
    const reconciled: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const heldReconciler = {
      reconcile: async (message: { storeId: string }) => {
        running += 1;
        mostAtOnce = Math.max(mostAtOnce, running);
        await held;
        running -= 1;
        reconciled.push(message.storeId);
        return 'MATCHED';
      },
    } as unknown as DayReconciler;
    // batchSize 32: up to 48 messages of the queue run at once, as host.json lets webhook deliveries.
    // Hidden for 10 s, renewed every 5 s: a held message never reappears on a slow machine.
    const queue = await privateReconcileQueue(heldReconciler, logger, { batchSize: 32, visibilityTimeoutSeconds: 10 });
    const messages = 30;
    try {
      await Promise.all(
        Array.from({ length: messages }, (_, i) =>
          queue.queue.sendMessage(
            base64Json({
              partnerId: 'P-SLOTS',
              storeId: `S-${String(i).padStart(2, '0')}`,
              businessDate: '2026-03-01',
              closeBatchId: randomUUID(),
            }),
          ),
        ),
      );
      // More messages handed to the function than the limit has slots: those run, the rest wait in
      // the process. (The poller stops fetching once more than 16 run, so not all 30 need arrive.)
      await eventually(
        () => Promise.resolve([slots.running, slots.waiting]),
        ([inSlots, waiting]) => inSlots === maxConcurrentReconciliations && (waiting ?? 0) > 0,
        30_000,
      );
      expect([slots.running, slots.waiting > 0, running]).toEqual([maxConcurrentReconciliations, true, maxConcurrentReconciliations]);
      release();
      await eventually(
        () => Promise.resolve(reconciled.length),
        (count) => count >= messages,
        30_000,
      );
      expect(mostAtOnce).toBe(maxConcurrentReconciliations);
      expect(new Set(reconciled).size).toBe(messages);
      expect(reconciled).toHaveLength(messages);
    } finally {
      release();
      await queue.stop();
    }
  });

  it('a message that finds no slot free within the wait is sent again for later, and is then reconciled once', async () => {
    const { lines, logger } = recordingLogger();
    const started: string[] = [];
    const reconciled: string[] = [];
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const heldReconciler = {
      reconcile: async (message: { storeId: string }) => {
        started.push(message.storeId);
        if (message.storeId === 'S-FIRST') await held;
        reconciled.push(message.storeId);
        return 'MATCHED';
      },
    } as unknown as DayReconciler;
    // One slot, held by the first message; the second gives up after 300 ms and comes back 1 s later.
    const queue = await privateReconcileQueue(heldReconciler, logger, {
      visibilityTimeoutSeconds: 10,
      slots: { count: 1, wait: { maxWaitMs: 300, deferSeconds: 1 } },
    });
    const message = (storeId: string) =>
      base64Json({ partnerId: 'P-DEFER', storeId, businessDate: '2026-03-02', closeBatchId: randomUUID() });
    try {
      await queue.queue.sendMessage(message('S-FIRST'));
      // The first holds the one slot before the second arrives.
      expect(
        await eventually(
          () => Promise.resolve([...started]),
          (ids) => ids.includes('S-FIRST'),
        ),
      ).toEqual(['S-FIRST']);
      await queue.queue.sendMessage(message('S-SECOND'));
      // The second message's run ends without reconciling, with a warning; its copy comes back once the first is released.
      await eventually(
        () => Promise.resolve(lines.filter((line) => line.includes('no reconciliation slot freed within 0.3 s'))),
        (warnings) => warnings.length > 0,
        20_000,
      );
      expect([started, reconciled]).toEqual([['S-FIRST'], []]);
      expect(lines.some((line) => line.includes('reconcileDay: deferred'))).toBe(true);
      release();
      await eventually(
        () => Promise.resolve(reconciled.length),
        (count) => count >= 2,
        20_000,
      );
      // Each once, the held one first; nothing failed, so nothing went towards the poison queue.
      expect(reconciled).toEqual(['S-FIRST', 'S-SECOND']);
      expect(lines.filter((line) => line.includes('failed on dequeue'))).toEqual([]);
      expect((await queue.poison.exists()) ? (await queue.poison.peekMessages()).peekedMessageItems : []).toEqual([]);
    } finally {
      release();
      await queue.stop();
    }
  });

  it('the real reconcileDay function logs each failure and an error when it moves a malformed message to the poison queue', async () => {
    const { lines, logger } = recordingLogger();
    const queue = await privateReconcileQueue(service.services.reconciler, logger);
    try {
      const text = base64Json({});
      await queue.queue.sendMessage(text);
      await eventually(
        async () => (await queue.poison.peekMessages()).peekedMessageItems,
        (items) => items.length === 1,
        20_000,
      );
      const [poisoned] = (await queue.poison.peekMessages()).peekedMessageItems;
      expect(poisoned!.messageText).toBe(text);
      const failures = lines.filter((l) => /reconcileDay: failed on dequeue \d: Error: the message is not of the expected shape/.test(l));
      expect(failures).toHaveLength(5);
      // The poller logs the move after it has also deleted the original: the line may come a moment after the copy.
      const moved = await eventually(
        () => Promise.resolve(lines.filter((l) => l.startsWith('ERROR') && l.includes(`moved to ${queue.poison.name} after 5 dequeues`))),
        (found) => found.length > 0,
        5_000,
      );
      expect(moved).toHaveLength(1);
    } finally {
      await queue.stop();
    }
  });

  it('a mapping upload that lands while a run is aggregating with the old mapping still gets the day reconciled with the new one', async () => {
    const { partner, days } = await setUpPartner(service, [USD]);
    const day = days[0]!;
    const records = [
      buildRecord(day, { id: 'MR-1', code: 'S01', items: [{ product: 'X1', name: 'Item', qty: 2, unit: 1150 }] }),
      buildRecord(day, { id: 'MR-2', code: 'CT30', items: [{ product: 'CATER', name: 'Catering', qty: 1, unit: 18_000 }], tip: 1_500 }),
    ];
    await push(service, partner, tradeBatch(day, 1, records));
    const totals = controlTotals(USD, records, { mapping: { ...POS_CODES, CT30: 'SALE' } });
    const close = dailyClose(day, 1, totals);
    // The close is stored and the day set to RECEIVED as POST /daily-close does, but its
    // reconciliation is run below by hand instead of from the queue.
    const t = service.services.storage.tables;
    const receivedAt = new Date().toISOString();
    expect(await new DayCloseRepository(t.dailyCloses).putIfLatest(partner.partnerId, { close, receivedAt })).toBe(true);
    await new ReconciliationRepository(t.reconciliations).markReceived(partner.partnerId, day.storeId, day.businessDate, {
      batchId: close.batch_id,
      receivedAt,
      expected: totals,
    });

    // The partner uploads the mapping with CT30 after the run read the old mapping and before it
    // noted the day's unmapped codes.
    const usage = new UnmappedUsageRepository(t.unmappedUsage);
    let uploaded = false;
    const racingUsage = Object.assign(Object.create(usage) as UnmappedUsageRepository, {
      async record(...args: Parameters<UnmappedUsageRepository['record']>) {
        if (!uploaded) {
          uploaded = true;
          const upload = await service.call(partner, 'PUT', 'mappings/transaction-types', mappingBody({ ...POS_CODES, CT30: 'SALE' }));
          expect(upload.status).toBe(202);
        }
        return usage.record(...args);
      },
    });
    const reconciler = new DayReconciler(reconcilerDeps({ unmappedUsage: racingUsage }));
    const message = { partnerId: partner.partnerId, storeId: day.storeId, businessDate: day.businessDate, closeBatchId: close.batch_id };
    await reconciler.reconcile(message).catch(() => undefined);
    expect(uploaded).toBe(true);

    const result = await eventually(
      () => getResult(service, partner, day),
      (r) => r.status === 'MATCHED',
    );
    expect(result).toMatchObject({ status: 'MATCHED', actual: totals, differences: [] });
    expect(result.diagnosis?.unmapped_transaction_types).toEqual([]);
  });
});
