/**
 * A batch storage refuses part-way while other pushes move the same trade_record_id: its clean-up
 * (`discard`) leaves the id counted on one store-day, at the highest version accepted, through the
 * real processor, index and homes on the storage emulator.
 */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TradeRecordBatch } from '../../../src/domain/model/payloads.js';
import { ApiError } from '../../../src/errors/ApiError.js';
import { StorageError } from '../../../src/errors/StorageError.js';
import type { ReconcileMessage } from '../../../src/services/ReconcileMessage.js';
import type { StoreDay, TradeRecordHomes } from '../../../src/services/ports/TradeRecordHomes.js';
import type { TradeRecords } from '../../../src/services/ports/TradeRecords.js';
import { TradeRecordMoves } from '../../../src/services/push/TradeRecordMoves.js';
import { tradeRecordsProcessor, type TradeRecordsDependencies } from '../../../src/services/push/tradeRecordsProcessor.js';
import { TradeRecordHomeTable } from '../../../src/storage/TradeRecordHomeTable.js';
import { TradeRecordIndex } from '../../../src/storage/TradeRecordIndex.js';
import { azuriteTable } from '../../support/azuriteClients.js';
import { buildUsdTaxExcludedRecord } from '../../fixtures/tradeRecordFixtures.js';
import { deferred } from '../../support/deferred.js';

const tableName = (): string => `t${randomUUID().replace(/-/g, '').slice(0, 20)}`;
let index: TradeRecordIndex;
let homes: TradeRecordHomeTable;
beforeAll(async () => {
  [index, homes] = [new TradeRecordIndex(await azuriteTable(tableName())), new TradeRecordHomeTable(await azuriteTable(tableName()))];
});

const day = (n: number): StoreDay => ({ storeId: 'S/1', businessDate: `2026-03-0${n}` });
const receivedAt = '2026-03-09T00:00:00Z';

/** The raw bodies of the pushes, for the clean-up that puts older versions back. */
const rawBodies = new Map<string, Uint8Array>();

function batch(at: StoreDay, batchSeq: number, id: string, version: number): TradeRecordBatch {
  const record = buildUsdTaxExcludedRecord({
    tradeRecordId: id,
    version,
    lastModifiedAt: `2026-03-01T1${version}:00:00Z`,
    ...at,
  });
  const body = {
    batch_id: randomUUID(),
    store_id: at.storeId,
    business_date: at.businessDate,
    batch_seq: batchSeq,
    trade_records: [record],
  };
  rawBodies.set(body.batch_id, new TextEncoder().encode(JSON.stringify(body)));
  return body;
}

/** The trade-records processor over the emulator's index and homes; nothing else it reads matters here. */
function processor(ports: { index?: TradeRecords; homes?: TradeRecordHomes; closedWith?: string; queued?: ReconcileMessage[] } = {}) {
  const lateData = { batchCommitted: () => Promise.resolve() };
  const indexPort = ports.index ?? index;
  const deps: TradeRecordsDependencies = {
    stores: { get: () => Promise.resolve(undefined) },
    index: indexPort,
    closes: { get: () => Promise.resolve(ports.closedWith === undefined ? undefined : { close: { batch_id: ports.closedWith } }) },
    mappings: { current: () => Promise.resolve({ batchId: null, byCode: new Map() }) },
    products: { knownIds: () => Promise.resolve(new Set<string>()) },
    paymentDirections: { listForPartner: () => Promise.resolve(new Map()) },
    clock: () => new Date(receivedAt),
    rawBatches: { get: (_partnerId: string, batchId: string) => Promise.resolve(rawBodies.get(batchId)) },
    reconcileQueue: {
      send: (message: ReconcileMessage) => {
        ports.queued?.push(message);
        return Promise.resolve();
      },
    },
    lateData,
    moves: new TradeRecordMoves({
      homes: ports.homes ?? homes,
      index: indexPort,
      lateData,
      stores: { isActive: () => Promise.resolve(true) },
    }),
  } as unknown as TradeRecordsDependencies;
  return tradeRecordsProcessor(deps);
}

/** An index whose batch write writes its rows or not, and is then refused (as when another chunk of it is). */
function refusingIndex(write: boolean): TradeRecords {
  return delegate(index, 'applyBatch', async (applyBatch, args) => {
    if (write) await applyBatch(...args);
    throw new StorageError('invalid', 400, 'EntityTooLarge');
  });
}

/**
 * A push whose storage is held while the test looks at it: its homes' claim resolves `claimed`
 * once written, and its index write waits for `release`, then is refused without writing.
 */
function heldPush(): { ports: { index: TradeRecords; homes: TradeRecordHomes }; claimed: Promise<void>; release: () => void } {
  const { promise: claimed, resolve: claimedNow } = deferred();
  const { promise: released, resolve: release } = deferred();
  const heldIndex = delegate(index, 'applyBatch', async () => {
    await released;
    throw new StorageError('invalid', 400, 'EntityTooLarge');
  });
  const claimingHomes = delegate(homes, 'claim', async (claim, args) => {
    const result = await claim(...args);
    claimedNow();
    return result;
  });
  return { ports: { index: heldIndex, homes: claimingHomes }, claimed, release };
}

/** `target` with one method replaced by `wrap`, which gets the original. */
function delegate<T extends object>(
  target: T,
  method: keyof T,
  wrap: (original: (...args: unknown[]) => Promise<unknown>, args: unknown[]) => Promise<unknown>,
): T {
  return new Proxy(target, {
    get(object, name) {
      const value: unknown = Reflect.get(object, name);
      if (typeof value !== 'function') return value;
      const bound = (...args: unknown[]) => (value as (...a: unknown[]) => Promise<unknown>).apply(object, args);
      return name === method ? (...args: unknown[]) => wrap(bound, args) : bound;
    },
  });
}

let partnerId = '';

/** Applies a push; the codes of its STALE_VERSION warnings (the others are about data these tests leave out). */
async function push(body: TradeRecordBatch): Promise<string[]> {
  const warnings = await processor().apply({ partnerId, body, receivedAt });
  return warnings.filter((w) => w.code === 'STALE_VERSION').map((w) => w.message);
}

/** A push storage refuses, with its clean-up; `meanwhile` runs while its write is under way (`applying`: its outcome). */
async function failedPush(
  body: TradeRecordBatch,
  ports: { index: TradeRecords; homes?: TradeRecordHomes; closedWith?: string; queued?: ReconcileMessage[] },
  meanwhile?: (applying: Promise<string>) => Promise<void>,
) {
  const failing = processor(ports);
  const context = { partnerId, body, receivedAt };
  const applying = failing.apply(context).then(
    () => 'applied',
    (error: unknown) => {
      if (error instanceof StorageError) return 'refused';
      throw error;
    },
  );
  await meanwhile?.(applying);
  expect(await applying).toBe('refused');
  await failing.discard?.(context);
}

/** What days 1–3 hold for the id: the version counted, or the day a mark says it moved to. */
async function holders(id: string): Promise<string[]> {
  const found: string[] = [];
  for (const n of [1, 2, 3]) {
    const row = await index.getRecord(partnerId, day(n).storeId, day(n).businessDate, id);
    if (row?.summary) found.push(`${n}: v${row.summary.version}`);
    else if (row) found.push(`${n}: moved to ${row.movedTo.businessDate.slice(-1)}`);
  }
  return found;
}

describe('a failed batch among moves', () => {
  it('puts no older version back on a day the transaction moved away from', async () => {
    partnerId = `p-${randomUUID()}`;
    await push(batch(day(2), 1, 'X', 1));
    await push(batch(day(1), 1, 'X', 2));
    expect(await holders('X')).toEqual(['1: v2', '2: moved to 1']);
    // Version 3 back under day 2 is written over the mark, then its batch is refused.
    await failedPush(batch(day(2), 2, 'X', 3), { index: refusingIndex(true) });
    expect(await holders('X')).toEqual(['1: v2']);
  });

  it('leaves no version out for a home whose version is still being written, and counts it once that batch failed', async () => {
    partnerId = `p-${randomUUID()}`;
    const older = batch(day(1), 1, 'Y', 1);
    const held = heldPush();
    await failedPush(batch(day(2), 1, 'Y', 2), held.ports, async () => {
      await held.claimed;
      try {
        // The home names version 2 under day 2, which holds nothing yet: the push is asked to come back.
        await expect(push(older)).rejects.toSatisfy((error) => error instanceof ApiError && error.code === 'SERVICE_UNAVAILABLE');
      } finally {
        held.release();
      }
    });
    expect(await push(older)).toEqual([]);
    expect(await holders('Y')).toEqual(['1: v1']);
  });

  it('gives the home back the stamp of the version its day holds', async () => {
    partnerId = `p-${randomUUID()}`;
    const held = heldPush();
    await failedPush(batch(day(1), 1, 'Z', 5), held.ports, async () => {
      await held.claimed;
      try {
        await push(batch(day(1), 2, 'Z', 3));
      } finally {
        held.release();
      }
    });
    expect(await homes.get(partnerId, 'Z')).toMatchObject({ ...day(1), stamp: { version: 3 } });
    // So version 4, the highest accepted, moves it.
    expect(await push(batch(day(2), 3, 'Z', 4))).toEqual([]);
    expect(await holders('Z')).toEqual(['1: moved to 2', '2: v4']);
  });

  it('waits for its claim before cleaning up, so no home of it outlives the batch', async () => {
    partnerId = `p-${randomUUID()}`;
    const events: string[] = [];
    // The claim is written a turn of the event loop late, over storage; a push that did not wait
    // for it would fail meanwhile, as the refusal of its index write reaches it in promise
    // continuations alone.
    const slowHomes = delegate(homes, 'claim', async (claim, args) => {
      await new Promise((resolve) => setImmediate(resolve));
      const claimed = await claim(...args);
      events.push('claim landed');
      return claimed;
    });
    await failedPush(batch(day(2), 1, 'W', 2), { index: refusingIndex(false), homes: slowHomes }, (applying) => {
      const settled = (): void => {
        events.push('push failed');
      };
      void applying.then(settled, settled);
      return Promise.resolve();
    });
    expect(events).toEqual(['claim landed', 'push failed']);
    // So the clean-up, which follows the failure, found the home the claim wrote.
    expect(await homes.get(partnerId, 'W')).toBeUndefined();
    expect(await push(batch(day(1), 2, 'W', 1))).toEqual([]);
    expect(await holders('W')).toEqual(['1: v1']);
  });

  it("schedules the closed day's run named after the batch, so a retry of it publishes the result it stored", async () => {
    partnerId = `p-${randomUUID()}`;
    const queued: ReconcileMessage[] = [];
    const failing = batch(day(3), 1, 'V', 1);
    await failedPush(failing, { index: refusingIndex(true), closedWith: 'CLOSE-3', queued });
    expect(queued).toEqual([{ partnerId, ...day(3), closeBatchId: 'CLOSE-3', runId: `failed-${failing.batch_id}` }]);
    expect(await holders('V')).toEqual([]);
  });
});
