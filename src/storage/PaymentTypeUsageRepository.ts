import type { TableClient } from '@azure/data-tables';
import type { NotePage } from '../services/ports/NotePage.js';
import { listNotePage } from './listNotePage.js';
import { isNotFound, isPreconditionFailed } from './storageErrors.js';
import { tableKey } from './tableKey.js';

/** A closed store-day that used a partner payment type, as noted by its latest reconciliation. */
export interface PaymentTypeUsage {
  readonly paymentType: string;
  readonly storeId: string;
  readonly businessDate: string;
  /** The note's version: a removal takes it away only while no later run has noted the day again. */
  readonly etag: string;
}

interface UsageEntity {
  readonly storeId?: string;
  readonly businessDate?: string;
}

/**
 * Remembers which closed days used which of a partner's own payment types, so that a direction HQ
 * sets for one of them can have those days reconciled again. One partition per partner and payment
 * type: a direction change reads exactly the days of its type, however many others are noted.
 */
export class PaymentTypeUsageRepository {
  constructor(private readonly table: TableClient) {}

  async record(partnerId: string, storeId: string, businessDate: string, paymentTypes: Iterable<string>): Promise<void> {
    // One partition per type, so one write per type; the caller bounds how many a day notes.
    // The values are kept as properties too: a long value's part of a key is a digest.
    await Promise.all(
      [...paymentTypes].map((paymentType) =>
        this.table.upsertEntity(
          { partitionKey: tableKey(partnerId, paymentType), rowKey: tableKey(storeId, businessDate), paymentType, storeId, businessDate },
          'Replace',
        ),
      ),
    );
  }

  async listDaysPage(partnerId: string, paymentType: string, after: string | undefined, max: number): Promise<NotePage<PaymentTypeUsage>> {
    return listNotePage<UsageEntity, PaymentTypeUsage>(
      this.table,
      tableKey(partnerId, paymentType),
      after,
      max,
      ['storeId', 'businessDate'],
      (e) =>
        e.storeId === undefined || e.businessDate === undefined
          ? undefined
          : { paymentType, storeId: e.storeId, businessDate: e.businessDate, etag: e.etag },
    );
  }

  async remove(partnerId: string, usage: PaymentTypeUsage): Promise<void> {
    try {
      await this.table.deleteEntity(tableKey(partnerId, usage.paymentType), tableKey(usage.storeId, usage.businessDate), {
        etag: usage.etag,
      });
    } catch (error) {
      if (!isNotFound(error) && !isPreconditionFailed(error)) throw error;
    }
  }
}
