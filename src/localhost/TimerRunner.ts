/**
 * Runs the captured timer-triggered functions locally the way the Functions host's timer listener
 * does: each at the times its NCRONTAB schedule names (UTC), at start-up too when `runOnStartup`
 * is set, one run of a function at a time (in Azure a timer function runs on one instance at a
 * time). The next occurrence is taken from when a run started and waited for once it has ended,
 * so an occurrence that passed while a run was going is run as soon as that run ends, once, not
 * skipped. A failed run is logged and the schedule goes on.
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

/** What the host keeps of a schedule between runs; a run is handed it as it stood before the run. */
interface ScheduleStatus {
  readonly last: Date;
  readonly next: Date;
  readonly lastUpdated: Date;
}

/** `last` and `lastUpdated` of a function that has not run yet. */
const never = new Date(0);

interface Scheduled {
  readonly fn: CapturedTimerFunction;
  readonly schedule: NcrontabSchedule;
  status: ScheduleStatus;
  cancel: (() => void) | undefined;
  running: Promise<void> | undefined;
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
      .map((fn) => ({
        fn,
        schedule: NcrontabSchedule.parse(fn.schedule),
        status: { last: never, next: never, lastUpdated: never },
        cancel: undefined,
        running: undefined,
      }));
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    for (const entry of this.#scheduled) {
      entry.status = { last: never, next: entry.schedule.next(this.#clock()), lastUpdated: never };
      if (entry.fn.runOnStartup) this.#invoke(entry);
      else this.#arm(entry);
    }
  }

  /** Stops scheduling and resolves once every running invocation has finished. */
  async stop(): Promise<void> {
    this.#running = false;
    for (const entry of this.#scheduled) entry.cancel?.();
    await Promise.all(this.#scheduled.map((entry) => entry.running ?? Promise.resolve()));
  }

  /** Waits for the status's next occurrence (at once when it has passed) and runs the function then. */
  #arm(entry: Scheduled): void {
    if (!this.#running) return;
    const due = entry.status.next;
    // Long waits are taken in steps, so a clock change or a sleeping machine cannot stretch them.
    const wait = Math.min(due.getTime() - this.#clock().getTime(), 60_000);
    entry.cancel = this.#scheduler(
      () => {
        entry.cancel = undefined;
        if (this.#clock().getTime() >= due.getTime()) this.#invoke(entry);
        else this.#arm(entry);
      },
      Math.max(wait, 0),
    );
  }

  #invoke(entry: Scheduled): void {
    const invocationId = randomUUID();
    const startedAt = this.#clock();
    const { status } = entry;
    const timer: Timer = {
      // Azure sets it only for an occurrence missed while no host ran, which a local host cannot know of.
      isPastDue: false,
      schedule: { adjustForDST: true },
      scheduleStatus: { last: status.last.toISOString(), next: status.next.toISOString(), lastUpdated: status.lastUpdated.toISOString() },
    };
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
      }
      // The schedule moves on from when the run started (never before its occurrence: the timer
      // fires at it or later), so an occurrence that passed during the run is the next one.
      entry.status = { last: startedAt, next: entry.schedule.next(startedAt), lastUpdated: startedAt };
      entry.running = undefined;
      this.#arm(entry);
    })();
  }
}
