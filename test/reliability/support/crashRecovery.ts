import type { PushStep } from '../../../src/services/push/BatchIngestion.js';
import { ackOf, type TestResponse } from '../../support/responseBodies.js';
import { startTestService, type TestService } from '../../support/startTestService.js';
import { buildDayBatch, businessDateOf, checkDay, ledgerState, preparePartner, type Figures } from './dayScenario.js';
import { FaultPolicy, SimulatedCrash, isBlobPut, isLedgerCommit, isLedgerCreate, isTableTransaction } from './faultPolicy.js';
import { randomInt, seededRandom } from './random.js';

/** Where a push is cut off. */
export const crashPoints = [
  'ledger entry not sent',
  'ledger entry response lost',
  'after ledger entry',
  'blob put not sent',
  'blob put response lost',
  'after blob',
  'table transaction 1 not sent',
  'table transaction 1 response lost',
  'table transaction 2 not sent',
  'before commit mark',
  'commit mark not sent',
  'commit mark response lost',
  'after commit mark, before response',
] as const;
export type CrashPoint = (typeof crashPoints)[number];

export interface CrashHarness {
  readonly service: TestService;
  readonly policy: FaultPolicy;
  /** Crash the next push of `batchId` at `step`. */
  crashAtStep(step: PushStep, batchId: string): void;
  /**
   * Takes back every crash armed for the run, fired or not. A first send that failed before its
   * step (storage gave no answer, say) must not leave the crash waiting for the partner's retry.
   */
  disarm(): void;
  stop(): Promise<void>;
}

/** One in-process service whose storage requests and push steps can be cut off. */
async function startCrashHarness(): Promise<CrashHarness> {
  const policy = new FaultPolicy();
  let pending: { step: PushStep; batchId: string } | undefined;
  const service = await startTestService({
    services: {
      policy,
      // Nothing runs the sweep by itself during a run; the scenario calls it.
      abandonedAfterMs: 0,
      onPushStep: (step, batchId) => {
        if (pending?.step === step && pending.batchId === batchId) {
          pending = undefined;
          throw new SimulatedCrash(`step ${step}`);
        }
      },
    },
  });
  return {
    service,
    policy,
    crashAtStep: (step, batchId) => {
      pending = { step, batchId };
    },
    disarm: () => {
      pending = undefined;
      policy.disarm();
    },
    stop: () => service.stop(),
  };
}

export type Recovery = 'partner retries' | 'sweep finishes';

export interface CrashRunResult {
  readonly point: CrashPoint;
  readonly recovery: Recovery;
  readonly acknowledged: boolean;
  readonly lost: boolean;
  readonly appliedTwice: boolean;
  readonly unfinished: boolean;
  readonly accepted: number;
  /** The first send was cut off (answered 5xx). */
  readonly crashed: boolean;
  readonly detail: string;
}

/**
 * One seeded run: a push of a small batch is cut off at `point`; then either the partner sends
 * the same batch again, or nobody does and the sweep finishes it (the partner asks once more
 * afterwards, as a partner would after a timeout). Then the day is checked.
 */
async function runOneCrash(h: CrashHarness, partnerId: string, partnerKey: string, run: number, seed: number): Promise<CrashRunResult> {
  const random = seededRandom(seed * 100_003 + run);
  const point = crashPoints[run % crashPoints.length]!;
  // The first two passes over the crash points try each with both recoveries; later runs (npm run
  // chaos) draw the recovery at random.
  const cycle = Math.floor(run / crashPoints.length);
  const drawn = random() < 0.5;
  const recovery: Recovery = (cycle < 2 ? cycle === 0 : drawn) ? 'partner retries' : 'sweep finishes';
  // Mostly tiny batches; the second-transaction crash needs more than 100 rows.
  const count = point === 'table transaction 2 not sent' ? randomInt(random, 101, 120) : randomInt(random, 1, 4);
  const storeId = 'NYC-0001';
  const businessDate = businessDateOf((seed % 1000) * 3 + run);
  const batch = buildDayBatch(random, storeId, businessDate, count, `${seed}-${run}`);
  const partner = { partnerId, key: partnerKey, keyId: '', storeIds: [storeId] };
  const { service, policy } = h;

  switch (point) {
    case 'after ledger entry':
      h.crashAtStep('ledger-created', batch.batch_id);
      break;
    case 'after blob':
      h.crashAtStep('blob-stored', batch.batch_id);
      break;
    case 'before commit mark':
      h.crashAtStep('applied', batch.batch_id);
      break;
    case 'after commit mark, before response':
      h.crashAtStep('committed', batch.batch_id);
      break;
    case 'ledger entry not sent':
      // The body is stored beside the entry: it is left with no entry standing for it.
      policy.armCrash(isLedgerCreate);
      break;
    case 'ledger entry response lost':
      policy.armCrash(isLedgerCreate, true);
      break;
    case 'blob put not sent':
      policy.armCrash(isBlobPut);
      break;
    case 'blob put response lost':
      policy.armCrash(isBlobPut, true);
      break;
    case 'table transaction 1 not sent':
      policy.armTransactionCrash(0);
      break;
    case 'table transaction 1 response lost':
      policy.armCrash(isTableTransaction, true);
      break;
    case 'table transaction 2 not sent':
      policy.armTransactionCrash(1);
      break;
    case 'commit mark not sent':
      policy.armCrash(isLedgerCommit);
      break;
    case 'commit mark response lost':
      policy.armCrash(isLedgerCommit, true);
      break;
  }
  const answers: number[] = [];
  const responses: TestResponse[] = [];
  const first = await service.call(partner, 'POST', 'trade-records', batch);
  h.disarm();
  answers.push(first.status);
  responses.push(first);

  let sweepOutcome = '-';
  if (recovery === 'sweep finishes') {
    sweepOutcome = await service.services.sweeper.sweep({ partnerId, batchId: batch.batch_id });
  }
  // The partner saw a failure (or nothing): it sends the batch again.
  if (first.status !== 202 && first.status !== 200) {
    const again = await service.call(partner, 'POST', 'trade-records', batch);
    answers.push(again.status);
    responses.push(again);
  }
  const acknowledged = answers.some((s) => s === 202 || s === 200);
  const acks = responses.filter((r) => r.status === 202 || r.status === 200).map(ackOf);
  const accepted = acks.filter((b) => b.status === 'ACCEPTED').length;
  const wrongCount = acks.some((b) => b.record_count !== count);
  const state = await ledgerState(service, partnerId, batch.batch_id);
  const day = await checkDay(service, partner, random, storeId, businessDate, acknowledged ? batch.trade_records : []);
  const lost = acknowledged && (day.missing > 0 || (day.reconciliation !== 'MATCHED' && day.reconciliation !== 'skipped'));
  const appliedTwice = accepted > 1 || day.unexpected > 0 || wrongCount || (acknowledged && day.reconciliation === 'MISMATCHED');
  return {
    point,
    recovery,
    acknowledged,
    lost,
    appliedTwice,
    unfinished: state === 'PENDING' || (acknowledged && state !== 'COMMITTED'),
    accepted,
    crashed: (answers[0] ?? 0) >= 500,
    detail: `answers=${answers.join(',')} sweep=${sweepOutcome} ledger=${state} rows=${day.indexRows}/${count} reconciliation=${day.reconciliation} differences=${day.differences.join('|')}`,
  };
}

export interface CrashRecoveryReport {
  readonly figures: Figures<'crashed' | 'acceptedAnswers' | 'finishedBySweep'>;
  readonly byPoint: Record<string, number>;
  readonly failures: string[];
  readonly seconds: number;
}

export async function runCrashRecovery(runs: number, seed: number): Promise<CrashRecoveryReport> {
  const started = Date.now();
  const h = await startCrashHarness();
  try {
    const partner = await preparePartner(h.service, seededRandom(seed));
    const figures: Figures<'crashed' | 'acceptedAnswers' | 'finishedBySweep'> = {
      attempted: 0,
      acknowledged: 0,
      lost: 0,
      appliedTwice: 0,
      unfinished: 0,
      crashed: 0,
      acceptedAnswers: 0,
      finishedBySweep: 0,
    };
    const byPoint: Record<string, number> = {};
    const failures: string[] = [];
    for (let run = 0; run < runs; run++) {
      figures.attempted += 1;
      let r: CrashRunResult;
      try {
        r = await runOneCrash(h, partner.partnerId, partner.key, run, seed);
      } catch (error) {
        // A run whose own checks could not be made (storage gave the harness no answer, say) is
        // reported with where and when it happened, and the runs after it still go on.
        const at = Math.round((Date.now() - started) / 1000);
        failures.push(`run ${run} [${crashPoints[run % crashPoints.length]}] could not be checked at ${at} s: ${errorSummary(error)}`);
        continue;
      }
      if (r.acknowledged) figures.acknowledged += 1;
      if (r.lost) figures.lost += 1;
      if (r.appliedTwice) figures.appliedTwice += 1;
      if (r.unfinished) figures.unfinished += 1;
      figures.acceptedAnswers += r.accepted;
      if (r.crashed) figures.crashed += 1;
      if (r.recovery === 'sweep finishes' && r.detail.includes('sweep=completed')) figures.finishedBySweep += 1;
      byPoint[`${r.point} / ${r.recovery}`] = (byPoint[`${r.point} / ${r.recovery}`] ?? 0) + 1;
      if (r.lost || r.appliedTwice || r.unfinished || !r.acknowledged) failures.push(`run ${run} [${r.point}; ${r.recovery}] ${r.detail}`);
    }
    return { figures, byPoint, failures, seconds: Math.round((Date.now() - started) / 1000) };
  } finally {
    await h.stop();
  }
}

function errorSummary(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.name}: ${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}
