import { performance } from 'node:perf_hooks';
import type { ReconciliationRepository, ReconciliationStatus } from '../src/storage/ReconciliationRepository.js';
import { benchBusinessDate } from './benchBusinessDate.js';

/**
 * Polls the store-day until the queued reconciliation has stored its result for this close, and
 * returns its status. Gives up two minutes after `since` (a performance.now() instant), so a
 * reconciliation that never runs fails the benchmark instead of hanging it.
 */
export async function awaitResult(
  results: ReconciliationRepository,
  partnerId: string,
  storeId: string,
  closeBatchId: string,
  poll: { readonly intervalMs: number; readonly since: number },
): Promise<ReconciliationStatus> {
  for (;;) {
    const record = await results.get(partnerId, storeId, benchBusinessDate);
    if (record?.closeBatchId === closeBatchId && record.status !== 'RECEIVED') return record.status;
    if (performance.now() - poll.since > 120_000) throw new Error('the queued reconciliation did not finish within two minutes');
    await new Promise((resolve) => setTimeout(resolve, poll.intervalMs));
  }
}
