import { BatchTemplate } from './BatchTemplate.js';
import { type BenchEnvironment } from './BenchEnvironment.js';
import { benchBusinessDate } from './benchBusinessDate.js';
import type { BenchScale } from './benchScale.js';
import { isPollerReceive } from './RequestCounter.js';

export interface StorageOpsResult {
  readonly records: number;
  readonly total: number;
  readonly blob: number;
  readonly table: number;
  readonly queue: number;
  readonly tableTransactions: number;
  /** Tries beyond the first (an operation retried on a busy machine); not in the counts above. */
  readonly retries: number;
  /** label → count, largest first. */
  readonly byOperation: readonly { readonly label: string; readonly count: number }[];
}

/**
 * Counts the storage operations of one new batch pushed over HTTP (warm service: the partner has
 * pushed before, so per-partner caches hold what they would in steady state). The queue
 * poller's receive calls run whether or not anything is pushed and are left out.
 */
export async function measureStorageOps(env: BenchEnvironment, scale: BenchScale): Promise<StorageOpsResult> {
  const storeId = 'OPS-0001';
  const partner = await env.createPartner('bench-ops', [storeId]);
  const template = new BatchTemplate({ storeId, businessDate: benchBusinessDate, recordCount: scale.recordsPerBatch, seed: 11 });
  const warm = await env.send(partner, 'POST', 'trade-records', template.render(0x20000));
  if (warm.status !== 202) throw new Error(`push answered ${warm.status}`);

  env.counter.reset();
  const response = await env.send(partner, 'POST', 'trade-records', template.render(0x20001));
  const counts = env.counter.snapshot();
  const retries = env.counter.retries();
  if (response.status !== 202) throw new Error(`push answered ${response.status}`);

  const byOperation = [...counts]
    .filter(([label]) => !isPollerReceive(label))
    .map(([label, count]) => ({ label, count }))
    .sort((a, b) => b.count - a.count || a.label.localeCompare(b.label));
  const sum = (prefix: string) => byOperation.filter((o) => o.label.startsWith(prefix)).reduce((n, o) => n + o.count, 0);
  return {
    records: template.recordCount,
    total: sum(''),
    blob: sum('blob '),
    table: sum('table '),
    queue: sum('queue '),
    tableTransactions: sum('table POST $batch'),
    retries,
    byOperation,
  };
}
