import { ackOf } from '../../support/responseBodies.js';
import { startTestService } from '../../support/startTestService.js';
import { buildDayBatch, businessDateOf, checkDay, ledgerState, preparePartner, type Figures } from './dayScenario.js';
import { FaultPolicy } from './faultPolicy.js';
import { randomInt, seededRandom } from './random.js';

export interface StorageFaultReport {
  readonly figures: Figures<'partialCommits' | 'answers5xxOther' | 'faultsInjected' | 'storageRequests'>;
  readonly statuses: Record<string, number>;
  readonly failures: string[];
  readonly seconds: number;
}

/** Partner-side sends per batch before giving up (the partner would go on later). */
const maxSends = 12;

/**
 * Pushes small batches while a seeded share (5–20 %) of all storage requests fails with 500,
 * 503, a timeout before sending, or a timeout after storage did the work. The partner resends on
 * 5xx. Checks: only 202 / 200 / 503 are ever answered, every batch ends committed exactly once,
 * and each store-day reconciles against its independently computed totals (checked with the
 * faults switched off).
 */
export async function runStorageFaults(runs: number, seed: number): Promise<StorageFaultReport> {
  const started = Date.now();
  const policy = new FaultPolicy();
  const service = await startTestService({ services: { policy, abandonedAfterMs: 0 } });
  const statuses: Record<string, number> = {};
  const failures: string[] = [];
  const figures: Figures<'partialCommits' | 'answers5xxOther' | 'faultsInjected' | 'storageRequests'> = {
    attempted: 0,
    acknowledged: 0,
    lost: 0,
    appliedTwice: 0,
    unfinished: 0,
    partialCommits: 0,
    answers5xxOther: 0,
    faultsInjected: 0,
    storageRequests: 0,
  };
  try {
    const setup = seededRandom(seed ^ 0x5eed);
    const partner = await preparePartner(service, setup);
    const random = seededRandom(seed);
    const days: { businessDate: string; records: ReturnType<typeof buildDayBatch>['trade_records']; batchIds: string[] }[] = [];
    const requestsBefore = policy.counts.table + policy.counts.blob + policy.counts.queue;
    for (let run = 0; run < runs; run++) {
      const rate = 0.05 + random() * 0.15;
      const businessDate = businessDateOf(1500 + (seed % 500) * 3 + run);
      const batch = buildDayBatch(random, 'NYC-0001', businessDate, randomInt(random, 1, 4), `f${seed}-${run}`);
      figures.attempted += 1;
      policy.randomFaults = { rate, random: seededRandom(seed * 7919 + run) };
      const answers: number[] = [];
      let accepted = 0;
      let acknowledged = false;
      for (let send = 0; send < maxSends && !acknowledged; send++) {
        const answer = await service.call(partner, 'POST', 'trade-records', batch);
        answers.push(answer.status);
        statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
        if (answer.status === 202 || answer.status === 200) {
          acknowledged = true;
          const ack = ackOf(answer);
          if (ack.status === 'ACCEPTED') accepted += 1;
          if (ack.record_count !== batch.trade_records.length) figures.appliedTwice += 1;
        } else if (answer.status !== 503) {
          figures.answers5xxOther += 1;
          failures.push(`run ${run}: answered ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      }
      policy.randomFaults = undefined;
      if (acknowledged) figures.acknowledged += 1;
      if (accepted > 1) figures.appliedTwice += 1;
      // A batch never acknowledged must be all or nothing: committed with every row, or not applied.
      const state = await ledgerState(service, partner.partnerId, batch.batch_id);
      if (state === 'PENDING') {
        // A pending batch is what the sweep is for; it must finish it.
        await service.services.sweeper.sweep({ partnerId: partner.partnerId, batchId: batch.batch_id });
      }
      const finalState = await ledgerState(service, partner.partnerId, batch.batch_id);
      if (finalState === 'PENDING') figures.unfinished += 1;
      const day = await checkDay(service, partner, random, 'NYC-0001', businessDate, batch.trade_records, { reconcile: false });
      if (finalState === 'COMMITTED' && day.missing > 0) {
        figures.partialCommits += 1;
        failures.push(`run ${run}: committed but ${day.missing} rows missing (answers ${answers.join(',')})`);
      }
      if (acknowledged && day.missing > 0) figures.lost += 1;
      if (day.unexpected > 0) figures.appliedTwice += 1;
      if (acknowledged || finalState === 'COMMITTED') days.push({ businessDate, records: batch.trade_records, batchIds: [batch.batch_id] });
    }
    figures.faultsInjected = policy.injected;
    figures.storageRequests = policy.counts.table + policy.counts.blob + policy.counts.queue - requestsBefore;
    // Reconcile every day that was acknowledged (faults off): the totals must match exactly.
    for (const day of days) {
      const check = await checkDay(service, partner, random, 'NYC-0001', day.businessDate, day.records);
      if (check.reconciliation !== 'MATCHED') {
        figures.lost += 1;
        failures.push(`${day.businessDate}: ${check.reconciliation} ${check.differences.join(',')}`);
      }
    }
    return { figures, statuses, failures, seconds: Math.round((Date.now() - started) / 1000) };
  } finally {
    policy.randomFaults = undefined;
    await service.stop();
  }
}
