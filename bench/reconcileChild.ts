/**
 * Child process of the benchmark, so that a reconciliation's memory is measured alone: receives
 * one job through the IPC channel, runs it, and reports { ok, report } back.
 */
import { runReconcileJob, type ReconcileChildRequest } from './runReconcileJob.js';

process.once('message', (request: ReconcileChildRequest) => {
  runReconcileJob(request).then(
    (report) => process.send?.({ ok: true, report }, () => process.exit(0)),
    (error: unknown) => process.send?.({ ok: false, error: error instanceof Error ? error.message : String(error) }, () => process.exit(1)),
  );
});
