import { performance } from 'node:perf_hooks';
import type { TradeRecordBatch } from '../src/domain/model/payloads.js';
import { BatchTemplate } from './BatchTemplate.js';
import { type BenchEnvironment } from './BenchEnvironment.js';
import { benchBusinessDate } from './benchBusinessDate.js';
import { businessDateOfPush } from './businessDateOfPush.js';
import { PushFloor } from './PushFloor.js';
import type { BenchScale } from './benchScale.js';
import { percentile, round } from './stats.js';

export interface PushLatencyResult {
  readonly bodyBytes: number;
  readonly records: number;
  readonly floorTransactions: number;
  readonly pushP50Ms: number;
  readonly pushP95Ms: number;
  readonly floorP50Ms: number;
  readonly floorP95Ms: number;
  readonly p50Ratio: number;
}

/** Rounds answered 503 (storage deadline missed on an overloaded machine) that are run again. */
const maxUnavailable = 5;

/**
 * One partner pushes batches one at a time over real HTTP; between pushes the floor (the same
 * blob put and index transactions straight through the SDKs) runs on the same bytes, so drift
 * of the machine hits both sides alike. Warm-up rounds are not counted. Each round's push and
 * floor write a store-day of their own ({@link businessDateOfPush}).
 */
export async function measurePushLatency(env: BenchEnvironment, scale: BenchScale): Promise<PushLatencyResult> {
  const storeId = 'LAT-0001';
  const partner = await env.createPartner('bench-latency', [storeId]);
  const template = new BatchTemplate({ storeId, businessDate: benchBusinessDate, recordCount: scale.recordsPerBatch, seed: 7 });
  const sample = template.render(0);
  const floor = new PushFloor(env.connectionString, sample, JSON.parse(sample.toString('utf8')) as TradeRecordBatch);

  const push: number[] = [];
  const floorTimes: number[] = [];
  let unavailable = 0;
  const rounds = scale.latencyWarmup + scale.latencyIterations;
  for (let i = 0; i < rounds; i++) {
    // Every round, run again or not, on a store-day of its own: push and floor alike.
    const businessDate = businessDateOfPush(1 + i + unavailable);
    const body = template.render(0x10000 + i + 0x1000 * unavailable, businessDate);
    const started = performance.now();
    const response = await env.send(partner, 'POST', 'trade-records', body);
    const pushMs = performance.now() - started;
    if (response.status === 503 && unavailable < maxUnavailable) {
      // Storage did not answer within the service's deadline (a machine overloaded by other work):
      // the round is not counted and is run again with a new batch.
      unavailable += 1;
      i -= 1;
      continue;
    }
    if (response.status !== 202) {
      throw new Error(
        `push answered ${response.status}: ${JSON.stringify(response.body).slice(0, 400)}; service log: ${env.errors.slice(-3).join(' | ')}`,
      );
    }
    const [firstWarning] = warningsOf(response.body);
    if (firstWarning !== undefined) throw new Error(`push warned: ${JSON.stringify(firstWarning)}`);

    const run = floor.prepare(i, businessDate);
    const floorStarted = performance.now();
    await run();
    const floorMs = performance.now() - floorStarted;
    if (i >= scale.latencyWarmup) {
      push.push(pushMs);
      floorTimes.push(floorMs);
    }
  }
  const pushP50 = percentile(push, 50);
  const floorP50 = percentile(floorTimes, 50);
  return {
    bodyBytes: template.size,
    records: template.recordCount,
    floorTransactions: floor.transactionCount,
    pushP50Ms: round(pushP50, 1),
    pushP95Ms: round(percentile(push, 95), 1),
    floorP50Ms: round(floorP50, 1),
    floorP95Ms: round(percentile(floorTimes, 95), 1),
    p50Ratio: round(pushP50 / floorP50, 2),
  };
}

/** The `warnings` of an acknowledgement body; none when the body has no such list. */
function warningsOf(body: unknown): readonly unknown[] {
  if (typeof body !== 'object' || body === null || !('warnings' in body)) return [];
  return Array.isArray(body.warnings) ? (body.warnings as unknown[]) : [];
}
