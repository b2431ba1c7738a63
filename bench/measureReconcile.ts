import { performance } from 'node:perf_hooks';
import type { ReconcileMessage } from '../src/services/ReconcileMessage.js';
import { ReconciliationRepository } from '../src/storage/ReconciliationRepository.js';
import { odata } from '@azure/data-tables';
import { tableKey } from '../src/storage/tableKey.js';
import { awaitResult } from './awaitResult.js';
import type { RoundTripChain } from './LatencyProxy.js';
import { expectAccepted, type BenchEnvironment, type BenchPartner } from './BenchEnvironment.js';
import { forkReconcileJob } from './forkReconcileJob.js';
import { instanceHeapFlags } from './instanceHeap.js';
import { loadStoreDay } from './loadStoreDay.js';
import { pendingRunMessage } from './pendingRunMessage.js';
import { removeStagedFragments } from './removeStagedFragments.js';
import type { BenchScale } from './benchScale.js';
import type { ReconcileChildReport } from './runReconcileJob.js';
import { median, round } from './stats.js';

export interface ReconcileResult {
  readonly transactions: number;
  readonly batches: number;
  readonly loadSeconds: number;
  /** Pushes of the day's load answered 5xx (a missed storage deadline) and sent again. */
  readonly loadResends: number;
  /** From the moment the close's queue message became visible to the result being stored. */
  readonly queueMs: number;
  readonly queueStatus: string;
  readonly reconcileMs: number;
  readonly floorMs: number;
  readonly ratio: number;
  readonly outcome: string;
  readonly rows: number;
  readonly reconcileRssMb: number;
  readonly reconcileStartRssMb: number;
  readonly floorRssMb: number;
  /** Peak RSS of a reconciliation whose old-generation heap was capped at {@link cappedOldSpaceMb} MB. */
  readonly cappedRssMb: number;
  readonly cappedOutcome: string;
  /**
   * A first reconciliation in a fresh process with none of the day's report fragments staged: it
   * converts every batch from its raw body, as a closed day reconciled again after a new mapping,
   * or one whose fragments the lifecycle rule deleted, does.
   */
  readonly cold: { readonly ms: number; readonly rssMb: number; readonly outcome: string; readonly fragmentsRemoved: number };
  /**
   * The warm and the cold reconciliation again, with V8's heap sized as Node sizes it on a machine
   * of the instance's memory ({@link instanceHeapFlags}) rather than this machine's.
   */
  readonly instanceHeap: { readonly rssMb: number; readonly coldRssMb: number; readonly outcome: string };
  /**
   * Latency profile only: storage round trips waited on one after another by one warm
   * reconciliation of the day (report files included), and by one sequential listing of it.
   */
  readonly roundTrips?: { readonly reconcile: RoundTripChain; readonly floor: RoundTripChain };
}

const closeDelayMs = 1000;
/** Old-generation heap limit of the capped reconciliation run. */
export const cappedOldSpaceMb = 40;

/**
 * Loads a store-day of `transactions` through the push endpoint, sends its daily close and times
 * the queue-triggered reconciliation; then, in child processes so memory is measured alone,
 * times `reconcile` against listing the same partition with the SDK.
 */
export async function measureReconcile(
  env: BenchEnvironment,
  scale: BenchScale,
  partner: BenchPartner,
  storeId: string,
  transactions: number,
  tagBase: number,
): Promise<ReconcileResult> {
  const { batchCount, loadSeconds, resends, close, message } = await loadStoreDay(env, partner, {
    storeId,
    transactions,
    recordsPerBatch: scale.recordsPerBatch,
    tagBase,
  });
  const results = new ReconciliationRepository(env.service.services.storage.tables.reconciliations);
  expectAccepted(await env.send(partner, 'POST', 'daily-close', JSON.stringify(close)), 'daily-close');
  const visibleAt = performance.now() + closeDelayMs;
  const queueStatus = await awaitResult(results, partner.partnerId, storeId, message.closeBatchId, { intervalMs: 20, since: visibleAt });
  const queueMs = Math.max(0, performance.now() - visibleAt);

  // Floor and reconciliation take turns, a fresh process each, so drift of the machine hits both alike.
  const floors: ReconcileChildReport[] = [];
  const reconciles: ReconcileChildReport[] = [];
  for (let round = 0; round < scale.reconcileRounds; round++) {
    floors.push(
      await forkReconcileJob({ connectionString: env.connectionString, mode: 'floor', message, iterations: scale.reconcileIterations }),
    );
    reconciles.push(
      await forkReconcileJob({ connectionString: env.connectionString, mode: 'reconcile', message, iterations: scale.reconcileIterations }),
    );
  }
  // Memory that does not grow with the day: the same reconciliation with V8's old generation
  // capped well below the day's size (a process that needed more would abort).
  const capped = await forkReconcileJob({ connectionString: env.connectionString, mode: 'reconcile', message, iterations: 1 }, [
    `--max-old-space-size=${cappedOldSpaceMb}`,
  ]);
  const sized = await forkReconcileJob(
    { connectionString: env.connectionString, mode: 'reconcile', message, iterations: scale.reconcileIterations },
    instanceHeapFlags,
  );
  const roundTrips = await countRoundTrips(env, message);
  // Last: a cold run stages the fragments again as it converts, as the service does, so each
  // removes them first.
  const coldRun = async (execArgv: readonly string[] = []) => {
    const removed = await removeStagedFragments(env.service.services.storage.reports, message.partnerId);
    return { removed, report: await forkReconcileJob({ connectionString: env.connectionString, mode: 'cold', message }, execArgv) };
  };
  const { removed: fragmentsRemoved, report: cold } = await coldRun();
  const { report: coldSized } = await coldRun(instanceHeapFlags);
  const reconcileMs = median(reconciles.flatMap((r) => r.times));
  const floorMs = median(floors.flatMap((r) => r.times));
  const peak = (reports: ReconcileChildReport[]) => Math.max(...reports.map((r) => r.peakRssBytes));
  const reconcile = {
    outcome: reconciles.every((r) => r.outcome === reconciles[0]?.outcome) ? (reconciles[0]?.outcome ?? '') : 'VARIED',
    peakRssBytes: peak(reconciles),
    startRssBytes: Math.min(...reconciles.map((r) => r.startRssBytes)),
  };
  const floor = { rows: floors[0]?.rows ?? 0, peakRssBytes: peak(floors) };
  const mb = (bytes: number) => round(bytes / (1024 * 1024), 0);
  return {
    transactions,
    batches: batchCount,
    loadSeconds: round(loadSeconds, 1),
    loadResends: resends,
    queueMs: round(queueMs, 0),
    queueStatus,
    reconcileMs: round(reconcileMs, 0),
    floorMs: round(floorMs, 0),
    ratio: round(reconcileMs / floorMs, 2),
    outcome: reconcile.outcome,
    rows: floor.rows,
    reconcileRssMb: mb(reconcile.peakRssBytes),
    reconcileStartRssMb: mb(reconcile.startRssBytes),
    floorRssMb: mb(floor.peakRssBytes),
    cappedRssMb: mb(capped.peakRssBytes),
    cappedOutcome: capped.outcome,
    cold: { ms: round(cold.times[0] ?? 0, 0), rssMb: mb(cold.peakRssBytes), outcome: cold.outcome, fragmentsRemoved },
    instanceHeap: {
      rssMb: mb(sized.peakRssBytes),
      coldRssMb: mb(coldSized.peakRssBytes),
      outcome: sized.outcome === coldSized.outcome ? sized.outcome : `${sized.outcome} / ${coldSized.outcome}`,
    },
    ...(roundTrips ? { roundTrips } : {}),
  };
}

/** Through the latency proxy, in this process: one warm reconciliation and one SDK listing of the day. */
async function countRoundTrips(env: BenchEnvironment, message: ReconcileMessage): Promise<ReconcileResult['roundTrips']> {
  const proxy = env.proxy;
  if (!proxy) return undefined;
  const run = await pendingRunMessage(new ReconciliationRepository(env.service.services.storage.tables.reconciliations), message);
  await proxy.idle();
  proxy.reset();
  await env.service.services.reconciler.reconcile(run);
  const reconcile = proxy.chain();
  await proxy.idle();
  proxy.reset();
  const partitionKey = tableKey(message.partnerId, message.storeId, message.businessDate);
  let rows = 0;
  const listing = env.service.services.storage.tables.tradeRecords.listEntities({
    queryOptions: { filter: odata`PartitionKey eq ${partitionKey}` },
  });
  for await (const page of listing.byPage()) rows += page.length;
  if (rows === 0) throw new Error('the listing of the reconciled day found no rows');
  return { reconcile, floor: proxy.chain() };
}
