/**
 * Child process of the benchmark that runs only the service, so the peak memory of concurrent
 * large pushes is the service's own: starts it on the given storage with the local settings,
 * prepares its partners, reports where to send, and reports its peak RSS when asked.
 */
import { serveForLargePushes, type LargePushService } from './serveForLargePushes.js';

let running: LargePushService | undefined;
process.on('message', (message: { kind: 'start'; connectionString: string } | { kind: 'report' }) => {
  if (message.kind === 'start') {
    serveForLargePushes(message.connectionString).then(
      (service) => {
        running = service;
        process.send?.({ ok: true, baseUrl: service.baseUrl, keys: service.keys });
      },
      (error: unknown) =>
        process.send?.({ ok: false, error: error instanceof Error ? error.message : String(error) }, () => process.exit(1)),
    );
  } else {
    const maxRssKb = process.resourceUsage().maxRSS;
    void running?.stop().finally(() => process.send?.({ ok: true, maxRssKb }, () => process.exit(0)));
  }
});
