import path from 'node:path';
import { forkJob } from './forkJob.js';
import { runReconcileJob, type ReconcileChildReport, type ReconcileChildRequest } from './runReconcileJob.js';

/** Runs a reconciliation job in its own child process (`reconcileChild.js`); see {@link forkJob}. */
export function forkReconcileJob(request: ReconcileChildRequest, execArgv: readonly string[] = []): Promise<ReconcileChildReport> {
  return forkJob('reconcile', path.join(__dirname, 'reconcileChild.js'), request, runReconcileJob, execArgv);
}
