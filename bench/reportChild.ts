/** Child process of the report benchmark: runs one job received over IPC and reports { ok, report }. */
import { runReportJob, type ReportJobRequest } from './runReportJob.js';

process.once('message', (request: ReportJobRequest) => {
  runReportJob(request).then(
    (report) => process.send?.({ ok: true, report }, () => process.exit(0)),
    (error: unknown) => process.send?.({ ok: false, error: error instanceof Error ? error.message : String(error) }, () => process.exit(1)),
  );
});
