import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { captureRegistrations, type CapturedTimerFunction } from '../../src/localhost/functionsCoreStandIn.js';
import { functionTable, sweepSchedule } from '../../src/functions/functionTable.js';
import { registerFunctions } from '../../src/functions/registerFunctions.js';
import { InvocationContext } from '@azure/functions';
import { PendingBatchIndex } from '../../src/storage/PendingBatchIndex.js';
import { startTestService, type TestService } from '../support/startTestService.js';
import { partnerWithStores, tradeBatch } from '../support/httpScenario.js';
import { FaultPolicy, SimulatedCrash, isBlobPut, isTableRead, isTableTransaction } from '../reliability/support/faultPolicy.js';
import { tableNames } from '../../src/storage/storageNames.js';

/** A clock the test moves forward, so the sweep's stale age passes without waiting. */
let offsetMs = 0;
const clock = (): Date => new Date(Date.now() + offsetMs);
let crashAfter: string | undefined;
/** When set, the next store of a push's body never reaches storage. */
let failBodyStore = false;
/** While set, storage refuses every table transaction. */
let refuseTransactions = false;
/** Answers storage gives in place of the real ones. */
const answers = new FaultPolicy();

describe('the pending-batch sweep (timer)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({
      services: {
        clock,
        abandonedAfterMs: 0,
        policy: {
          name: 'fail-body-store',
          sendRequest: (request, next) => {
            if (failBodyStore && isBlobPut(request)) {
              failBodyStore = false;
              throw new SimulatedCrash('body not stored');
            }
            if (refuseTransactions && isTableTransaction(request)) throw new SimulatedCrash('transaction refused');
            return answers.sendRequest(request, next);
          },
        },
        onPushStep: (step) => {
          if (step === crashAfter) {
            crashAfter = undefined;
            throw new SimulatedCrash(step);
          }
        },
      },
    });
  });
  afterAll(async () => {
    await service.stop();
  });

  const pendingRows = async (): Promise<number> => {
    let n = 0;
    for await (const _ of new PendingBatchIndex(service.services.storage.tables.pendingBatches).listOlderThan(new Date(Date.now() + 1e10)))
      n += 1;
    return n;
  };

  /** The level of each line the last timer run logged, in order. */
  let levels: string[] = [];

  /** The sweep function as the host registers it, run the way the timer trigger runs it. */
  const runTimerFunction = async (): Promise<string[]> => {
    const captured = captureRegistrations(() => {
      registerFunctions(functionTable, service.services);
    }).find((fn): fn is CapturedTimerFunction => fn.kind === 'timer')!;
    expect(captured).toMatchObject({ name: 'sweepPendingBatches', schedule: sweepSchedule });
    const lines: string[] = [];
    levels = [];
    const context = new InvocationContext({
      functionName: captured.name,
      logHandler: (level, ...args) => {
        levels.push(level);
        lines.push(args.join(' '));
      },
    });
    await captured.handler(
      { isPastDue: false, schedule: { adjustForDST: true }, scheduleStatus: { last: '', next: '', lastUpdated: '' } },
      context,
    );
    return lines;
  };

  /** A two-record push cut off once its body is stored, with the clock moved past the sweep's stale age. */
  const stalePushCutOffAfterItsBody = async () => {
    offsetMs = 0;
    const partner = await partnerWithStores(service);
    const batch = tradeBatch({ recordCount: 2 });
    crashAfter = 'blob-stored';
    expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBe(500);
    offsetMs = (service.services.config.batchSweepDelaySeconds + 1) * 1000;
    return { partner, batch };
  };

  it('a committed push leaves its row for the report fragment; a push cut off after storing its body is finished by the timer once stale', async () => {
    offsetMs = 0;
    const partner = await partnerWithStores(service);
    const rowsBefore = await pendingRows();
    // A committed trade-record batch keeps its row until the sweep has staged its report fragment.
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch({ recordCount: 3 }))).status).toBe(202);
    expect(await pendingRows()).toBe(rowsBefore + 1);

    const batch = tradeBatch({ recordCount: 4 });
    crashAfter = 'blob-stored';
    expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBe(500);
    expect(await pendingRows()).toBe(rowsBefore + 2);

    // Too recent: the sweep leaves them to a retry.
    expect((await runTimerFunction()).join('\n')).toMatch(/0 stale/);
    expect(await pendingRows()).toBe(rowsBefore + 2);

    offsetMs = (service.services.config.batchSweepDelaySeconds + 1) * 1000;
    const lines = await runTimerFunction();
    expect(lines.join('\n')).toMatch(
      /2 stale, 1 already finished, 1 completed, 0 dropped, 0 failed, 0 left pending, 2 report fragments staged/,
    );
    expect(await pendingRows()).toBe(0);
    const again = await service.call(partner, 'POST', 'trade-records', batch);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ status: 'ALREADY_RECEIVED', record_count: 4 });
  });

  it('drops a stale entry whose body was never stored, and lets the batch be sent again', async () => {
    offsetMs = 0;
    const partner = await partnerWithStores(service);
    const batch = tradeBatch({ recordCount: 2 });
    failBodyStore = true;
    expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBe(500);
    expect(failBodyStore).toBe(false);
    offsetMs = (service.services.config.batchSweepDelaySeconds + 1) * 1000;
    expect((await runTimerFunction()).join('\n')).toMatch(/1 dropped/);
    expect(await pendingRows()).toBe(0);
    offsetMs = 0;
    expect((await service.call(partner, 'POST', 'trade-records', batch)).status).toBe(202);
  });

  it('names a batch that fails in its log line and leaves it pending; the next sweep finishes it', async () => {
    const { batch } = await stalePushCutOffAfterItsBody();
    refuseTransactions = true;
    let lines: string[];
    try {
      lines = await runTimerFunction();
    } finally {
      refuseTransactions = false;
    }
    expect(lines.join('\n')).toMatch(/ 1 left pending/);
    const named = lines.filter((line) => line.includes(batch.batch_id));
    expect(named).toEqual([expect.stringMatching(/failed and is left pending: \w+/) as string]);
    expect((await runTimerFunction()).join('\n')).toMatch(/1 completed/);
    expect(await pendingRows()).toBe(0);
  });

  it("writes HQ's batch_failed figure in the log of the timer run that finds a batch failing", async () => {
    const { partner, batch } = await stalePushCutOffAfterItsBody();
    // Finishing the push, the sweep meets storage refusing the batch: it ends FAILED.
    const id = batch.trade_records[0]!.trade_record_id;
    answers.answerWith(
      (request) => isTableTransaction(request) && typeof request.body === 'string' && request.body.includes(`"${id}"`),
      400,
      'EntityTooLarge',
    );
    const lines = await runTimerFunction();
    expect(lines.join('\n')).toMatch(/ 1 failed/);
    expect(lines.filter((line) => line.startsWith('metric batch_failed 1 '))).toEqual([
      `metric batch_failed 1 partner=${partner.partnerId} batch_id=${batch.batch_id} code=BATCH_FAILED`,
    ]);
    expect(await pendingRows()).toBe(0);
  });

  it('ends with a warning, not a failed run, when storage is busy while the pending index is listed; the next sweep finishes the batch', async () => {
    const { partner, batch } = await stalePushCutOffAfterItsBody();
    // Busy for every try the storage client makes.
    answers.answerWith(isTableRead(tableNames.pendingBatches), 503, 'ServerBusy', 50);
    let lines: string[];
    try {
      lines = await runTimerFunction();
    } finally {
      answers.disarm();
    }
    const warning = lines.findIndex((line) => line.includes('listing the pending index stopped'));
    expect(lines[warning]).toMatch(
      /stopped \(StorageError: storage unavailable: 503 ServerBusy.*\); the rows not reached are left for the next sweep$/,
    );
    expect(levels[warning]).toBe('warning');
    expect(levels).not.toContain('error');
    expect((await runTimerFunction()).join('\n')).toMatch(/1 completed/);
    expect(await pendingRows()).toBe(0);
    expect((await service.call(partner, 'POST', 'trade-records', batch)).body).toMatchObject({ status: 'ALREADY_RECEIVED' });
  });

  it('fails the timer run when storage refuses the listing for a reason a later sweep does not change', async () => {
    for (const [status, code, message] of [
      [404, 'TableNotFound', /storage refused: 404 TableNotFound/],
      // A role missing: an operator's fix, not a busy hour.
      [403, 'AuthorizationPermissionMismatch', /storage unavailable: 403 AuthorizationPermissionMismatch/],
    ] as const) {
      answers.answerWith(isTableRead(tableNames.pendingBatches), status, code, 50);
      try {
        await expect(runTimerFunction()).rejects.toThrow(message);
      } finally {
        answers.disarm();
      }
    }
  });

  it('registers the sweep as a timer and no queue-triggered sweep', () => {
    const registered = captureRegistrations(() => {
      registerFunctions(functionTable, service.services);
    });
    const kinds = registered.map((fn) => `${fn.kind}:${fn.name}`);
    expect(kinds.filter((k) => k.startsWith('timer:'))).toEqual([
      'timer:sweepPendingBatches',
      'timer:writeMasterDataReports',
      'timer:pruneRateLimitWindows',
      'timer:watchQueues',
      'timer:watchStuckDays',
      'timer:deadLetterLostDeliveries',
    ]);
    // Queue functions are driven by messages sent for a reason of their own, never one per push.
    const queues = registered.flatMap((fn) => (fn.kind === 'queue' ? [fn.queueName] : []));
    expect(queues).toContain('reconcile-requests');
    expect(queues.filter((name) => /sweep/i.test(name))).toEqual([]);
  });
});
