/**
 * How long a reconcile message waits in the process for one of the `maxConcurrentReconciliations`
 * slots, and how much later it comes back when none frees in that time.
 *
 * The wait is part of the function's run, and host.json's `functionTimeout` is 5 minutes. In Azure
 * a Node.js function that reaches its timeout makes the host restart the whole worker process,
 * ending every invocation running in it (pushes, deliveries, the other reconciliations): a message
 * must never wait that long. 60 s of waiting, a run and its store_days turn stay inside it
 * (`reconcileRunBudgetMs` in test/infra/reconcileRunBudget.ts, which the infra test checks against
 * host.json). A message that waited that long is sent again, as a new message due `deferSeconds`
 * later, and its own run ends: the copy starts over with no dequeue counted against it, and
 * reconciling a day twice gives the same result.
 */
export const reconciliationSlotWait = { maxWaitMs: 60_000, deferSeconds: 15 } as const;

export interface ReconciliationSlotWait {
  readonly maxWaitMs: number;
  readonly deferSeconds: number;
}
