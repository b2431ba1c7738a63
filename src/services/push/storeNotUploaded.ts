import type { Warning } from '../../domain/model/Warning.js';

/**
 * The warning of a push for a store HQ holds no master data for: with no store there is no
 * currency to check `unchecked` (what the push carries) against.
 */
export function storeNotUploaded(unchecked: string): Warning {
  return {
    code: 'STORE_NOT_UPLOADED',
    path: 'store_id',
    message: `HQ has no master data for this store (PUT /stores): ${unchecked} could not be checked against the store's currency. Upload the store, then keep sending.`,
  };
}
