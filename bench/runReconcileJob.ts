/**
 * One reconciliation measurement: connects to the storage emulator and either reconciles one
 * store-day with the service's own reconciler or lists that day's partition with the SDK alone
 * (the floor); a warm-up run, then the counted runs, while sampling resident memory.
 */
import { odata } from '@azure/data-tables';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config/loadConfig.js';
import { createAppServices } from '../src/services/createAppServices.js';
import type { ReconcileMessage } from '../src/services/ReconcileMessage.js';
import { tableKey } from '../src/storage/tableKey.js';

export interface ReconcileChildRequest {
  readonly connectionString: string;
  readonly mode: 'reconcile' | 'floor';
  readonly message: ReconcileMessage;
  readonly iterations: number;
}

export interface ReconcileChildReport {
  readonly times: number[];
  readonly outcome: string;
  readonly rows: number;
  readonly startRssBytes: number;
  readonly peakRssBytes: number;
}

export async function runReconcileJob(request: ReconcileChildRequest): Promise<ReconcileChildReport> {
  const startRssBytes = process.memoryUsage.rss();
  let peak = startRssBytes;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 100);
  const services = createAppServices(
    loadConfig({
      AzureWebJobsStorage: request.connectionString,
      RECONCILE_DELAY_SECONDS: '1',
      MAX_REQUEST_BODY_BYTES: '5242880',
      RATE_LIMIT_PER_MINUTE: '1000000',
      BATCH_SWEEP_DELAY_SECONDS: '600',
      PARTNER_CACHE_SECONDS: '30',
      MAX_REQUEST_BYTES_IN_FLIGHT: '26214400',
      REPORTS_CONTAINER: 'reports',
      EVENT_TYPE_PREFIX: 'com.example.pos',
    }),
  );
  const { partnerId, storeId, businessDate } = request.message;
  const table = services.storage.tables.tradeRecords;
  const partitionKey = tableKey(partnerId, storeId, businessDate);

  let outcome = '';
  let rows = 0;
  const once = async (): Promise<void> => {
    if (request.mode === 'reconcile') {
      outcome = await services.reconciler.reconcile(request.message);
      return;
    }
    rows = 0;
    for await (const entity of table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${partitionKey}` } })) {
      if (entity.rowKey !== undefined) rows += 1;
    }
    outcome = 'listed';
  };

  await once();
  const times: number[] = [];
  for (let i = 0; i < request.iterations; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  clearInterval(sampler);
  return { times, outcome, rows, startRssBytes, peakRssBytes: Math.max(peak, peakRssOfThisProcess() ?? 0) };
}

/**
 * The kernel's high-water mark of this process's resident memory (VmHWM), Linux only. Not
 * `resourceUsage().maxRSS`: a forked child starts with its parent's figure there.
 */
function peakRssOfThisProcess(): number | undefined {
  try {
    const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}
