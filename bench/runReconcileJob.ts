/**
 * One reconciliation measurement: connects to the storage emulator and either reconciles one
 * store-day with the service's own reconciler or lists that day's partition with the SDK alone
 * (the floor), a warm-up run, then the counted runs; or (`cold`) reconciles the day once, with no
 * warm-up, after the caller removed its staged report fragments, so that the run converts every
 * batch from its raw body; or (`at-once`) reconciles several store-days side by side, once,
 * bypassing the service's limit on reconciliations at once. Resident memory is sampled throughout.
 */
import { performance } from 'node:perf_hooks';
import { odata } from '@azure/data-tables';
import { loadConfig } from '../src/config/loadConfig.js';
import { createAppServices } from '../src/services/createAppServices.js';
import type { ReconcileMessage } from '../src/services/ReconcileMessage.js';
import { ReconciliationRepository } from '../src/storage/ReconciliationRepository.js';
import { tableKey } from '../src/storage/tableKey.js';
import { benchSettings } from './benchSettings.js';
import { pendingRunMessage } from './pendingRunMessage.js';
import { sampleRss } from './sampleRss.js';
import { timeOnce, timeRuns } from './timeRuns.js';

export type ReconcileChildRequest =
  | {
      readonly connectionString: string;
      readonly mode: 'reconcile' | 'floor';
      readonly message: ReconcileMessage;
      readonly iterations: number;
    }
  | {
      readonly connectionString: string;
      readonly mode: 'cold';
      readonly message: ReconcileMessage;
    }
  | {
      readonly connectionString: string;
      readonly mode: 'at-once';
      readonly messages: readonly ReconcileMessage[];
    };

/** Storage deadlines of `at-once` runs: the emulator answers every listing on its one thread, so k of them take k times as long. */
const atOnceDeadlines = { tryTimeoutMs: 120_000, callDeadlineMs: 300_000 };

export interface ReconcileChildReport {
  readonly times: number[];
  readonly outcome: string;
  readonly rows: number;
  readonly startRssBytes: number;
  readonly peakRssBytes: number;
}

export async function runReconcileJob(request: ReconcileChildRequest): Promise<ReconcileChildReport> {
  if (request.mode === 'at-once') return reconcileAtOnce(request.connectionString, request.messages);
  const rss = sampleRss();
  const services = createAppServices(loadConfig(benchSettings(request.connectionString)));
  const { partnerId, storeId, businessDate } = request.message;
  const table = services.storage.tables.tradeRecords;
  const partitionKey = tableKey(partnerId, storeId, businessDate);

  let outcome = '';
  let rows = 0;
  // Every reconciliation is a close's run of its own, noted as the day's pending run first (not timed).
  const results = new ReconciliationRepository(services.storage.tables.reconciliations);
  let message = request.message;
  const prepare =
    request.mode === 'floor'
      ? undefined
      : async () => {
          message = await pendingRunMessage(results, request.message);
        };
  const once = async (): Promise<void> => {
    if (request.mode !== 'floor') {
      outcome = await services.reconciler.reconcile(message);
      return;
    }
    rows = 0;
    for await (const entity of table.listEntities({ queryOptions: { filter: odata`PartitionKey eq ${partitionKey}` } })) {
      if (entity.rowKey !== undefined) rows += 1;
    }
    outcome = 'listed';
  };

  // A warm-up would stage the fragments the cold run is there to convert.
  const times = request.mode === 'cold' ? await timeOnce(once, prepare) : await timeRuns(once, request.iterations, prepare);
  return { times, outcome, rows, startRssBytes: rss.startBytes, peakRssBytes: rss.stop() };
}

/** Reconciles every store-day at once, timing until the last result is stored. */
async function reconcileAtOnce(connectionString: string, messages: readonly ReconcileMessage[]): Promise<ReconcileChildReport> {
  const rss = sampleRss();
  const services = createAppServices(loadConfig(benchSettings(connectionString)), { deadlines: atOnceDeadlines });
  const started = performance.now();
  const outcomes = await Promise.all(messages.map((message) => services.reconciler.reconcile(message)));
  const ms = performance.now() - started;
  const outcome = [...new Set(outcomes)].join(', ');
  return { times: [ms], outcome, rows: 0, startRssBytes: rss.startBytes, peakRssBytes: rss.stop() };
}
