/**
 * Runs the captured timer-triggered functions locally the way the Functions host does: each at the
 * times its NCRONTAB schedule names (UTC), never two runs of one function at once (in Azure a
 * timer function runs on one instance at a time), at start-up too when `runOnStartup` is set. A
 * failed run is logged and the schedule goes on.
 */
import { randomUUID } from 'node:crypto';
import { InvocationContext, type Timer } from '@azure/functions';
import type { CapturedFunction, CapturedTimerFunction } from './functionsCoreStandIn.js';
import { describeFailure, invocationLogHandler, type LocalHostLogger } from './LocalHostLogger.js';
import { NcrontabSchedule } from './NcrontabSchedule.js';
import { readHostSettings } from './readHostSettings.js';
import { reportPastFunctionTimeout } from './reportPastFunctionTimeout.js';
import { systemClock, type Clock } from '../services/ports/Clock.js';
import { systemTimerScheduler, type TimerScheduler } from './TimerScheduler.js';

export interface TimerRunnerOptions {
  /** Captured registrations; only the timer-triggered ones are run. */
  readonly functions: readonly CapturedFunction[];
  readonly logger: LocalHostLogger;
  /** The time the schedules are read against. Default: the system clock. */
  readonly clock?: Clock;
  /** Waits until the next occurrence, on the clock's time. Default: Node's timers. */
  readonly scheduler?: TimerScheduler;
  /**
   * host.json `functionTimeout` in milliseconds: a run past it is reported (see
   * reportPastFunctionTimeout). Default: host.json's.
   */
  readonly functionTimeoutMs?: number;
}

interface Scheduled {
  readonly fn: CapturedTimerFunction;
  readonly schedule: NcrontabSchedule;
  cancel: (() => void) | undefined;
  running: Promise<void> | undefined;
  last: Date | undefined;
}

export class TimerRunner {
  readonly #scheduled: Scheduled[];
  readonly #logger: LocalHostLogger;
  readonly #clock: Clock;
  readonly #scheduler: TimerScheduler;
  readonly #functionTimeoutMs: number;
  #running = false;

  constructor(options: TimerRunnerOptions) {
    this.#logger = options.logger;
    this.#clock = options.clock ?? systemClock;
    this.#scheduler = options.scheduler ?? systemTimerScheduler;
    this.#functionTimeoutMs = options.functionTimeoutMs ?? readHostSettings().functionTimeoutSeconds * 1000;
    this.#scheduled = options.functions
      .filter((fn): fn is CapturedTimerFunction => fn.kind === 'timer')
      .map((fn) => ({ fn, schedule: NcrontabSchedule.parse(fn.schedule), cancel: undefined, running: undefined, last: undefined }));
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    for (const entry of this.#scheduled) {
      if (entry.fn.runOnStartup) this.#fire(entry, this.#clock());
      this.#arm(entry);
    }
  }

  /** Stops scheduling and resolves once every running invocation has finished. */
  async stop(): Promise<void> {
    this.#running = false;
    for (const entry of this.#scheduled) entry.cancel?.();
    await Promise.all(this.#scheduled.map((entry) => entry.running ?? Promise.resolve()));
  }

  #arm(entry: Scheduled): void {
    if (!this.#running) return;
    const due = entry.schedule.next(this.#clock());
    // Long waits are taken in steps, so a clock change or a sleeping machine cannot stretch them.
    const wait = Math.min(due.getTime() - this.#clock().getTime(), 60_000);
    entry.cancel = this.#scheduler(
      () => {
        if (this.#clock().getTime() >= due.getTime()) this.#fire(entry, due);
        this.#arm(entry);
      },
      Math.max(wait, 0),
    );
  }

  #fire(entry: Scheduled, due: Date): void {
    if (entry.running) {
      this.#logger.warn(`Function ${entry.fn.name}: the previous run is still going; this occurrence is skipped.`);
      return;
    }
    const invocationId = randomUUID();
    const next = entry.schedule.next(due);
    const now = this.#clock();
    const timer: Timer = {
      isPastDue: now.getTime() - due.getTime() > 1_000,
      schedule: { adjustForDST: true },
      scheduleStatus: {
        last: (entry.last ?? new Date(0)).toISOString(),
        next: next.toISOString(),
        lastUpdated: now.toISOString(),
      },
    };
    entry.last = due;
    const context = new InvocationContext({
      invocationId,
      functionName: entry.fn.name,
      logHandler: invocationLogHandler(this.#logger, entry.fn.name),
      options: { trigger: { ...entry.fn.triggerBinding, name: entry.fn.triggerBindingName } },
    });
    entry.running = (async () => {
      const stopWatching = reportPastFunctionTimeout(this.#logger, this.#functionTimeoutMs, { functionName: entry.fn.name, invocationId });
      try {
        await entry.fn.handler(timer, context);
      } catch (error) {
        this.#logger.error(`Function ${entry.fn.name} (invocation ${invocationId}) failed: ${describeFailure(error)}`);
      } finally {
        stopWatching();
        entry.running = undefined;
      }
    })();
  }
}
