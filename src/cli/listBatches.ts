import type { UncommittedBatches } from '../services/ports/UncommittedBatches.js';
import type { BatchLedger, LedgerListing } from '../storage/BatchLedger.js';
import type { LedgerPosition, UncommittedBatch } from '../storage/BatchLedgerListing.js';
import { hqLimits } from '../hq/hqLimits.js';
import { batchKindName } from '../domain/model/BatchKind.js';
import { UsageError } from './parseArgs.js';
import { printable } from './printable.js';

/**
 * `batch list --state failed|pending|committed [--partner <partner_id>]`: the batches in a state,
 * one per line. FAILED batches are those storage refused after validation: none of their
 * transactions are counted and they are never retried; the failure names storage's answer.
 * Failed and pending batches come from the same indexes as the HQ API's list; committed ones from
 * a scan of the ledger.
 */
export async function listBatches(
  ledger: Pick<BatchLedger, 'list'>,
  uncommitted: UncommittedBatches,
  out: (line: string) => void,
  options: Readonly<Record<string, string | undefined>>,
): Promise<void> {
  const state = (options.state ?? '').toLowerCase();
  if (state !== 'failed' && state !== 'pending' && state !== 'committed') {
    throw new UsageError('--state must be failed, pending or committed');
  }
  out('partner\tbatch_id\tkind\tstate\treceived_at\tfailed_at\tfailure');
  const entries: AsyncIterable<LedgerListing | UncommittedBatch> =
    state === 'committed' ? ledger.list('COMMITTED', options.partner) : allUncommitted(uncommitted, state, options.partner);
  for await (const entry of entries) {
    const fields = [
      entry.partnerId,
      entry.batchId,
      batchKindName[entry.kind],
      entry.state,
      entry.createdAt,
      entry.failedAt ?? '-',
      entry.failure ?? '-',
    ];
    out(fields.map(printable).join('\t'));
  }
}

async function* allUncommitted(
  listing: UncommittedBatches,
  state: 'failed' | 'pending',
  partnerId: string | undefined,
): AsyncIterable<UncommittedBatch> {
  let after: LedgerPosition | undefined;
  do {
    const page = await listing.page(state === 'failed' ? 'FAILED' : 'PENDING', { partnerId, limit: hqLimits.pageMax, after });
    yield* page.items;
    after = page.next;
  } while (after !== undefined);
}
