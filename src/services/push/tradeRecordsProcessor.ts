import type { TradeRecordBatch } from '../../domain/model/payloads.js';
import type { Warning } from '../../domain/model/Warning.js';
import { paymentDirection } from '../../domain/reconciliation/paymentDirection.js';
import { summarizeTradeRecord } from '../../domain/reconciliation/TradeRecordSummary.js';
import { checkAmountIdentity } from '../../domain/validation/checkAmountIdentity.js';
import { checkTradeRecordBatch } from '../../domain/validation/checkTradeRecordBatch.js';
import type { DayCloseRepository } from '../../storage/DayCloseRepository.js';
import type { PaymentDirectionRepository } from '../../storage/PaymentDirectionRepository.js';
import type { StoreMasterRepository } from '../../storage/StoreMasterRepository.js';
import type { TradeRecordIndex } from '../../storage/TradeRecordIndex.js';
import type { MappingCatalog } from '../catalog/MappingCatalog.js';
import type { ProductCatalog } from '../catalog/ProductCatalog.js';
import type { BatchProcessor } from './BatchProcessor.js';

export interface TradeRecordsDependencies {
  readonly stores: StoreMasterRepository;
  readonly index: TradeRecordIndex;
  readonly closes: DayCloseRepository;
  readonly mappings: MappingCatalog;
  readonly products: ProductCatalog;
  readonly paymentDirections: PaymentDirectionRepository;
  /** Re-reconciles a day whose close was received, once this batch's rows are written. */
  readonly lateData: { batchCommitted(partnerId: string, storeId: string, businessDate: string): Promise<unknown> };
}

/** POST /trade-records (contract §4.2): 1–500 transactions of one store and business date. */
export function tradeRecordsProcessor(deps: TradeRecordsDependencies): BatchProcessor<TradeRecordBatch> {
  return {
    kind: 'tradeRecords',
    collection: { field: 'trade_records', max: 500 },
    storeIdsOf: (body) => [body.store_id],
    recordCount: (body) => body.trade_records.length,

    async check(partnerId, body) {
      const store = await deps.stores.get(partnerId, body.store_id);
      return { problems: checkTradeRecordBatch(body, store?.currency) };
    },

    async apply({ partnerId, body, receivedAt }) {
      // The reads only shape the warnings, so they run while the index is written.
      const summaries = body.trade_records.map((record) => summarizeTradeRecord(record, body));
      const [mapping, knownProducts, directions, close, stale] = await Promise.all([
        deps.mappings.current(partnerId),
        deps.products.knownIds(partnerId),
        deps.paymentDirections.listForPartner(partnerId),
        deps.closes.get(partnerId, body.store_id, body.business_date),
        deps.index.applyBatch(partnerId, body.store_id, body.business_date, summaries, {
          batchId: body.batch_id,
          batchSeq: body.batch_seq,
          receivedAt,
          recordCount: body.trade_records.length,
        }),
      ]);

      const warnings: Warning[] = [];
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
        if (stale.has(record.trade_record_id)) {
          warnings.push({
            code: 'STALE_VERSION',
            path,
            message: 'A newer version of this transaction is already stored; this one was ignored.',
          });
        }
      });
      if (close) {
        // After the index writes above (awaited with the reads), so that the run scheduled, or the
        // one already pending, reads this batch.
        await deps.lateData.batchCommitted(partnerId, body.store_id, body.business_date);
        warnings.push({
          code: 'DAY_ALREADY_CLOSED',
          path: 'business_date',
          message: 'A daily close was already received for this store and business date; resend the daily close with a new batch_id.',
        });
      }
      return warnings;
    },
  };
}
