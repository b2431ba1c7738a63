import { setImmediate as nextTurn } from 'node:timers/promises';
import type { TradeRecordBatch } from '../../domain/model/payloads.js';
import { compareVersions } from '../../domain/reconciliation/compareVersions.js';
import type { Warning } from '../../domain/model/Warning.js';
import { paymentDirection } from '../../domain/reconciliation/paymentDirection.js';
import { summarizeTradeRecord, type TradeRecordSummary } from '../../domain/reconciliation/TradeRecordSummary.js';
import { checkAmountIdentity } from '../../domain/validation/checkAmountIdentity.js';
import { checkBusinessDate } from '../../domain/validation/checkBusinessDate.js';
import { checkTradeRecordBatch } from '../../domain/validation/checkTradeRecordBatch.js';
import type { Clock } from '../ports/Clock.js';
import type { DayCloses } from '../ports/DayCloses.js';
import type { MessageQueue } from '../ports/MessageQueue.js';
import type { PaymentDirections } from '../ports/PaymentDirections.js';
import type { RawBatches } from '../ports/RawBatches.js';
import type { StoreMasterData } from '../ports/StoreMasterData.js';
import type { TradeRecords } from '../ports/TradeRecords.js';
import type { MappingCatalog } from '../catalog/MappingCatalog.js';
import type { ProductCatalog } from '../catalog/ProductCatalog.js';
import type { ReconcileMessage } from '../ReconcileMessage.js';
import { storeNotUploaded } from './storeNotUploaded.js';
import type { BatchProcessor } from './BatchProcessor.js';
import { rowProblemDetails } from './rowProblemDetails.js';
import { heldElsewhere, staleVersion } from './staleVersion.js';
import type { TradeRecordMoves } from './TradeRecordMoves.js';
import { forEachStoredTradeBatch } from './forEachStoredTradeBatch.js';
import { changedUnderStamp } from './changedUnderStamp.js';
import type { DayBatch } from '../../storage/TradeRecordIndex.js';
import { storeDayOverLimit, type StoreDayLimits } from '../../domain/validation/storeDayOverLimit.js';

export interface TradeRecordsDependencies {
  readonly stores: StoreMasterData;
  readonly index: TradeRecords;
  readonly closes: DayCloses;
  readonly mappings: MappingCatalog;
  readonly products: ProductCatalog;
  readonly paymentDirections: PaymentDirections;
  readonly clock: Clock;
  /** Earlier batches of a day, to put back what a failed batch replaced. */
  readonly rawBatches: RawBatches;
  /** A day reconciled while a failed batch's rows were still there is reconciled again. */
  readonly reconcileQueue: MessageQueue<ReconcileMessage>;
  /** Re-reconciles a day whose close was received, once this batch's rows are written. */
  readonly lateData: { batchCommitted(partnerId: string, storeId: string, businessDate: string, cause: string): Promise<unknown> };
  /** Keeps each trade_record_id counted on one store-day when a version arrives under another. */
  readonly moves: TradeRecordMoves;
  readonly storeDayLimits: StoreDayLimits;
}

/** The batches of the store-day a body names, listed while the body is validated. */
interface DayBatchesAhead {
  readonly storeId: string;
  readonly businessDate: string;
  readonly batches: Promise<DayBatch[]>;
}

/** The shapes the schema requires of store_id and business_date: nothing else is worth a read. */
const maxIdLength = 128;
const datePattern = /^\d{4}-\d{2}-\d{2}$/;
/** The envelope's values as a client writes them, unescaped, near the start; anything else waits for the parse. */
const headScanBytes = 4096;
const storeIdInHead = /"store_id"\s*:\s*"([^"\\]{1,128})"/;
const businessDateInHead = /"business_date"\s*:\s*"(\d{4}-\d{2}-\d{2})"/;

/** POST /trade-records (contract §4.2): 1–500 transactions of one store and business date. */
export function tradeRecordsProcessor(deps: TradeRecordsDependencies): BatchProcessor<TradeRecordBatch, DayBatchesAhead> {
  const listDay = (partnerId: string, storeId: string, businessDate: string) =>
    deps.index.listDayBatches(partnerId, storeId, businessDate, deps.storeDayLimits.maxBatches);
  const readDayAhead = (partnerId: string, storeId: unknown, businessDate: unknown): DayBatchesAhead | undefined => {
    if (
      typeof storeId !== 'string' ||
      storeId.length > maxIdLength ||
      typeof businessDate !== 'string' ||
      !datePattern.test(businessDate)
    ) {
      return undefined;
    }
    // Read under the caller's own partner id, so a store_id that is not the caller's reads nothing of anyone's.
    const batches = listDay(partnerId, storeId, businessDate);
    // A body refused before `check` never awaits it.
    batches.catch(() => undefined);
    return { storeId, businessDate, batches };
  };
  return {
    kind: 'tradeRecords',
    collection: 'trade_records',
    storesOf: (body) => [{ storeId: body.store_id, path: '/store_id' }],
    recordCount: (body) => body.trade_records.length,

    readAhead(partnerId, value) {
      const { store_id: storeId, business_date: businessDate } = value as { store_id?: unknown; business_date?: unknown };
      return readDayAhead(partnerId, storeId, businessDate);
    },

    readAheadFromHead(partnerId, head) {
      // Every record's store_id and business_date must equal the batch's, so any occurrence is the
      // batch's in a body that passes validation; in any other the check finds the guess wrong.
      const text = new TextDecoder().decode(head.subarray(0, headScanBytes));
      return readDayAhead(partnerId, storeIdInHead.exec(text)?.[1], businessDateInHead.exec(text)?.[1]);
    },

    async check(partnerId, body, ahead) {
      const sameDay = ahead?.storeId === body.store_id && ahead.businessDate === body.business_date;
      const dayBatches = sameDay ? ahead.batches : listDay(partnerId, body.store_id, body.business_date);
      // Awaited only for a body that keeps to the rules: a refused one neither waits for the
      // listing nor hears of its failure.
      dayBatches.catch(() => undefined);
      const store = await deps.stores.get(partnerId, body.store_id);
      const problems = checkTradeRecordBatch(body, store?.currency);
      // Each record's business_date must equal the batch's, so the batch's is the one to check.
      const outOfWindow = checkBusinessDate(body.business_date, deps.clock(), '/business_date');
      if (outOfWindow) problems.unshift(outOfWindow);
      // The index rows this batch would write must all fit before anything is written.
      body.trade_records.forEach((record, i) => {
        const rowProblems = deps.index.rowProblems(partnerId, body.store_id, body.business_date, summarizeTradeRecord(record, body));
        problems.push(...rowProblemDetails(`/trade_records/${i}`, rowProblems, { payments: 'payments' }));
      });
      // A body that breaks the rules hears that first: fixing it would not make room in the day.
      if (problems.length === 0) {
        const over = storeDayOverLimit(
          { batchId: body.batch_id, recordCount: body.trade_records.length },
          await dayBatches,
          deps.storeDayLimits,
        );
        if (over) throw over;
      }
      return { problems };
    },

    async apply({ partnerId, body, receivedAt }) {
      // The reads only shape the warnings, so they run while the index is written. The index
      // transactions are sent first: they take longest, and a read started ahead of them would
      // hold back their start while the SDK builds their bodies.
      const summaries = body.trade_records.map((record) => summarizeTradeRecord(record, body));
      const here = { storeId: body.store_id, businessDate: body.business_date };
      const indexed = deps.index.applyBatch(partnerId, body.store_id, body.business_date, summaries, {
        batchId: body.batch_id,
        batchSeq: body.batch_seq,
        receivedAt,
        recordCount: body.trade_records.length,
      });
      // Raised below, once the claim has ended too; not an unhandled rejection while the turn is given.
      indexed.catch(() => undefined);
      // The index's first transaction leaves on the next turn of the event loop: storage starts on
      // it while the claim's bodies are built.
      await nextTurn();
      // Beside the index write: a home it creates is for an id sent nowhere before. A newer version
      // that takes the home elsewhere before this row lands marks the row's place as moved, and
      // the index then keeps this row out (see TradeRecordMoves).
      const claimed = deps.moves.claim(partnerId, here, summaries);
      // Both writes end before either's failure is raised: a failed batch's clean-up must find
      // every home its claim created.
      const writes = Promise.allSettled([indexed, claimed]).then(([index, homes]) => {
        if (index.status === 'rejected') throw index.reason;
        if (homes.status === 'rejected') throw homes.reason;
        return [index.value, homes.value] as const;
      });
      // The close is read beside the writes, not after them (a round trip less). A close stored
      // while they run is reconciled RECONCILE_DELAY_SECONDS later, which Azure's template holds at
      // functionTimeout or more: past the end of these writes, so its run lists this batch.
      const [[applied, homes], mapping, knownProducts, directions, close, store] = await Promise.all([
        writes,
        deps.mappings.current(partnerId),
        deps.products.knownIds(partnerId),
        deps.paymentDirections.listForPartner(partnerId),
        deps.closes.get(partnerId, body.store_id, body.business_date),
        deps.stores.get(partnerId, body.store_id),
      ]);

      // A copy under the stored stamp with the same figures may still say something else.
      const changed = await changedUnderStamp(deps.rawBatches, partnerId, body.trade_records, applied.keptFrom);
      const unwritten = changed.size === 0 ? applied : { stale: applied.stale, conflicting: new Set([...applied.conflicting, ...changed]) };

      // Only the rows this push wrote (or found already written) can move: a stale one moves nothing.
      const written = summaries.filter((s) => !unwritten.stale.has(s.trade_record_id) && !unwritten.conflicting.has(s.trade_record_id));
      const [leftOut, movedAway] = await Promise.all([
        deps.moves.settle(partnerId, here, written, homes),
        deps.moves.movedAmong(partnerId, here, [...unwritten.stale, ...unwritten.conflicting]),
      ]);

      const warnings: Warning[] = [];
      if (!store) warnings.push(storeNotUploaded("the transactions' currency"));
      body.trade_records.forEach((record, index) => {
        const path = `trade_records[${index}]`;
        const mismatch = checkAmountIdentity(record, index);
        if (mismatch) warnings.push(mismatch);
        if (!mapping.byCode.has(record.source_transaction_type)) {
          warnings.push({
            code: 'UNMAPPED_TRANSACTION_TYPE',
            path,
            message: 'source_transaction_type is not in the mapping; the transaction is left out of revenue until the code is mapped.',
          });
        }
        const unknownProducts = record.items.filter((item) => !knownProducts.has(item.product_id)).length;
        if (unknownProducts > 0) {
          warnings.push({
            code: 'UNKNOWN_PRODUCT',
            path,
            message: `${unknownProducts} item line(s) name a product_id HQ has no product data for.`,
          });
        }
        const unknownPayments = record.payments.filter((p) => paymentDirection(p.payment_type, directions) === undefined).length;
        if (unknownPayments > 0) {
          warnings.push({
            code: 'UNKNOWN_PAYMENT_TYPE',
            path,
            message: `${unknownPayments} payment(s) use a payment_type with no known direction; HQ reviews them and leaves them out of payment totals until registered.`,
          });
        }
        const id = record.trade_record_id;
        const movedTo = movedAway.get(id);
        const held = leftOut.get(id) ?? (movedTo && { ...movedTo, reason: unwritten.stale.has(id) ? 'stale' : 'conflicting' });
        const notApplied = held ? heldElsewhere(held, path) : staleVersion(unwritten, id, path, 'transaction');
        if (notApplied) warnings.push(notApplied);
      });
      if (close) {
        // After the index writes above (awaited with the reads), so that the run scheduled, or the
        // one already pending, reads this batch.
        await deps.lateData.batchCommitted(partnerId, body.store_id, body.business_date, body.batch_id);
        warnings.push({
          code: 'DAY_ALREADY_CLOSED',
          path: 'business_date',
          message: 'A daily close was already received for this store and business date; resend the daily close with a new batch_id.',
        });
      }
      return warnings;
    },

    async discard({ partnerId, body, receivedAt }) {
      const { store_id: storeId, business_date: businessDate, batch_id: batchId } = body;
      // First the mark: from here on no reconciliation counts this batch's rows.
      await deps.index.markBatchFailed(partnerId, storeId, businessDate, {
        batchId,
        batchSeq: body.batch_seq,
        receivedAt,
        recordCount: body.trade_records.length,
      });
      await deps.index.removeRowsOfBatch(partnerId, storeId, businessDate, batchId);
      // A removed row may have replaced an older version from another batch: the newest of those
      // goes back. Every id of the batch is looked up, not only those the removal reports: a
      // removal whose answer was lost reports nothing, and the version rule keeps what is newer.
      const ids = new Set(body.trade_records.map((record) => record.trade_record_id));
      const newest = new Map<string, TradeRecordSummary>();
      const others = (await deps.index.listBatches(partnerId, storeId, businessDate)).filter(
        (other) => other.failed !== true && other.batchId !== batchId,
      );
      // Each keeps only the versions of this batch's ids once parsed.
      const otherIds = others.map((other) => other.batchId);
      await forEachStoredTradeBatch(deps.rawBatches, partnerId, otherIds, (otherBody) => {
        for (const record of otherBody.trade_records) {
          if (!ids.has(record.trade_record_id)) continue;
          const summary = summarizeTradeRecord(record, otherBody);
          const current = newest.get(record.trade_record_id);
          if (!current || compareVersions(summary, current) > 0) newest.set(record.trade_record_id, summary);
        }
      });
      const restored = [...newest.values()];
      await deps.index.restore(partnerId, storeId, businessDate, restored);
      await deps.moves.release(
        partnerId,
        { storeId, businessDate },
        body.trade_records.map((record) => summarizeTradeRecord(record, body)),
        restored,
      );
      const close = await deps.closes.get(partnerId, storeId, businessDate);
      if (close) {
        // Named after the batch: a retry of the run that stored its result but failed to publish it
        // publishes that result, `reconciliation.changed` included, instead of one that compares
        // equal to it and so says nothing changed.
        const runId = `failed-${batchId}`;
        await deps.reconcileQueue.send({ partnerId, storeId, businessDate, closeBatchId: close.close.batch_id, runId }, 0);
      }
    },
  };
}
