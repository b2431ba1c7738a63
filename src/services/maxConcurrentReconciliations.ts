/**
 * Reconciliations one process runs at once. host.json's queue `batchSize` is set for webhook
 * deliveries, which mostly wait on partners' endpoints: up to 1.5 × batchSize messages of a queue
 * run per instance. A reconciliation holds memory instead: about 20 MB more at its peak per
 * 20,000-transaction day run beside others (12 at once peaked at 298–339 MB RSS; measured by
 * `npm run bench:reconciliations`, which holds this limit's peak to half an instance), so 12 keep a
 * 2,048 MB instance far from its limit. Further reconcile messages wait for a slot in the process,
 * for a bounded time (`reconciliationSlotWait`); their work is CPU-bound, so more at once would not
 * finish sooner.
 */
export const maxConcurrentReconciliations = 12;
