import type { Store } from '../domain/model/payloads.js';
import type { StoreRegistration } from '../storage/StoreRegistrationRepository.js';
import type { ParquetWriterModule } from './loadParquetWriter.js';
import { ParquetFileBuilder } from './ParquetFileBuilder.js';
import { reportColumns } from './reportColumns.js';
import { timestampMicros } from './timestampMicros.js';

/** A store registered for the partner, with the master data the partner sent for it (if any). */
export interface StoreOfPartner {
  readonly registration: StoreRegistration;
  readonly store: Store | undefined;
}

/**
 * The stores file of one partner: a row per registered store, in the order given (MasterDataReports
 * sorts them by store_id, the order its digest is taken in), stamped with `snapshotAt`. Undefined
 * when the partner has no store.
 */
export function encodeStores(
  module: ParquetWriterModule,
  partnerId: string,
  stores: readonly StoreOfPartner[],
  snapshotAt: Date,
): Uint8Array | undefined {
  const file = new ParquetFileBuilder(module, { dataset: 'stores', columns: reportColumns.stores });
  const snapshot = BigInt(snapshotAt.getTime()) * 1000n;
  for (const { registration, store } of stores) {
    file.append({
      partner_id: partnerId,
      store_id: registration.storeId,
      registration_status: registration.status,
      registered_at: instant(registration.registeredAt),
      retired_at: instant(registration.retiredAt),
      store_name: store?.store_name ?? null,
      country_code: store?.country_code ?? null,
      currency: store?.currency ?? null,
      time_zone: store?.time_zone ?? null,
      locale: store?.locale ?? null,
      workday_start: store?.workday_start ?? null,
      prices_include_tax: store?.prices_include_tax ?? null,
      status: store?.status ?? null,
      last_modified_at: instant(store?.last_modified_at ?? null),
      snapshot_at: snapshot,
    });
  }
  return file.finish();
}

/** A stored timestamp as microseconds in UTC; null when absent (validated when it was received). */
function instant(text: string | null): bigint | null {
  return text === null ? null : (timestampMicros(text)?.utc ?? null);
}
