import type { BatchLedger, LedgerState } from '../storage/BatchLedger.js';
import { UsageError } from './parseArgs.js';
import { printable } from './printable.js';

const states: Readonly<Record<string, LedgerState>> = { failed: 'FAILED', pending: 'PENDING', committed: 'COMMITTED' };

/**
 * `batch list --state failed|pending|committed [--partner <partner_id>]`: the batches in a state,
 * one per line. FAILED batches are those storage refused after validation: none of their
 * transactions are counted and they are never retried; the failure names storage's answer.
 */
export async function listBatches(
  ledger: BatchLedger,
  out: (line: string) => void,
  options: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const state = states[(options.state ?? '').toLowerCase()];
  if (state === undefined) throw new UsageError('--state must be failed, pending or committed');
  out('partner\tbatch_id\tkind\tstate\treceived_at\tfailed_at\tfailure');
  for await (const entry of ledger.list(state, options.partner)) {
    const fields = [entry.partnerId, entry.batchId, entry.kind, entry.state, entry.createdAt, entry.failedAt ?? '-', entry.failure ?? '-'];
    out(fields.map(printable).join('\t'));
  }
}
