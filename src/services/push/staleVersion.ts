import type { Warning } from '../../domain/model/Warning.js';
import type { Unwritten } from '../../storage/writeVersionedRows.js';

/**
 * The STALE_VERSION warning of a versioned record (`key`, at `path`) that a push left as stored:
 * a newer version is stored, or its version and last_modified_at with other content. Undefined
 * when the record was written.
 */
export function staleVersion<K>(unwritten: Unwritten<K>, key: K, path: string, record: 'transaction' | 'product'): Warning | undefined {
  if (unwritten.stale.has(key)) {
    return { code: 'STALE_VERSION', path, message: `A newer version of this ${record} is already stored; this one was ignored.` };
  }
  if (unwritten.conflicting.has(key)) {
    // A transaction's content is its figures; a product's is all it says.
    const content = record === 'transaction' ? 'figures' : 'content';
    return {
      code: 'STALE_VERSION',
      path,
      message: `This ${record} is already stored with the same version and last_modified_at but other ${content}; this copy was ignored. Send a change with version + 1.`,
    };
  }
  return undefined;
}
