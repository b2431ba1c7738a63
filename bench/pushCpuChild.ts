/**
 * Child process of the benchmark, so that a push's CPU is measured with a heap sized apart from
 * the benchmark's: receives one job through the IPC channel, runs it, and reports back.
 */
import { runPushCpuJob, type PushCpuRequest } from './runPushCpuJob.js';

process.once('message', (request: PushCpuRequest) => {
  runPushCpuJob(request).then(
    (report) => process.send?.({ ok: true, report }, () => process.exit(0)),
    (error: unknown) => process.send?.({ ok: false, error: error instanceof Error ? error.message : String(error) }, () => process.exit(1)),
  );
});
