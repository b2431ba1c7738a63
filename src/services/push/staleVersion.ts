import type { Warning } from '../../domain/model/Warning.js';
import type { Unwritten } from '../../storage/writeVersionedRows.js';
import type { HeldElsewhere } from './TradeRecordMoves.js';

/** Versions order by `version`, then by `last_modified_at`: "newer" says both, as a partner reads it as the first alone. */
const newerMeans = 'is already stored (a higher version, or the same version with a later last_modified_at)';

/**
 * The STALE_VERSION warning of a versioned record (`key`, at `path`) that a push left as stored:
 * a newer version is stored, or its version and last_modified_at with other content. Undefined
 * when the record was written.
 */
export function staleVersion<K>(unwritten: Unwritten<K>, key: K, path: string, record: 'transaction' | 'product'): Warning | undefined {
  if (unwritten.stale.has(key)) {
    return { code: 'STALE_VERSION', path, message: `A newer version of this ${record} ${newerMeans}; this one was ignored.` };
  }
  if (unwritten.conflicting.has(key)) {
    return {
      code: 'STALE_VERSION',
      path,
      message: `This ${record} is already stored with the same version and last_modified_at but other content; this copy was ignored. Send a change with version + 1.`,
    };
  }
  return undefined;
}

/**
 * The STALE_VERSION warning of a transaction (at `path`) left out because another store-day counts
 * its trade_record_id with a newer version, or the same one, or is a retired store's day. The day
 * is the partner's own.
 */
export function heldElsewhere(held: HeldElsewhere, path: string): Warning {
  const where = `store_id ${JSON.stringify(held.storeId)}, business_date ${held.businessDate}`;
  return { code: 'STALE_VERSION', path, message: heldElsewhereMessages[held.reason](where) };
}

const heldElsewhereMessages: Record<HeldElsewhere['reason'], (where: string) => string> = {
  stale: (where) => `A newer version of this transaction ${newerMeans} under ${where}; this one was ignored.`,
  conflicting: (where) =>
    `This transaction is already stored under ${where} with the same version and last_modified_at; this copy was ignored. To move it to this store and business date, send it with version + 1.`,
  retired: (where) =>
    `This transaction is stored under ${where}, a store HQ has retired, whose days take no more changes; this version was ignored. Ask HQ to reactivate the store if the transaction must move.`,
};
