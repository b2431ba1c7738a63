import { reconciliationSlotWait } from '../../src/services/reconciliationSlotWait.js';
import { storeDaysRewritesTiming } from '../../src/services/reports/StoreDaysRewrites.js';

/**
 * The heaviest reconciliation measured, from its slot to its day's files: twelve 20,000-transaction
 * days converting every batch at once took 64–68 s (`npm run bench:reconciliations`), rounded up.
 */
const heaviestRunMs = 70_000;

/** The store_days round under way when a holder's time ends: listing and writing a chain's date, rounded up. */
const lastRoundMs = 10_000;

/**
 * The longest a reconcile message's run takes: the wait for a slot, the run up to its day's files,
 * then the store_days turn (waiting and holding together) and the round under way when it ends.
 * It must stay well inside host.json's `functionTimeout` (5 minutes; the infra test checks it): in
 * Azure, a Node.js function that reaches it makes the host restart the worker process, ending every
 * invocation running in it.
 */
export const reconcileRunBudgetMs = reconciliationSlotWait.maxWaitMs + heaviestRunMs + storeDaysRewritesTiming.waitMs + lastRoundMs;
