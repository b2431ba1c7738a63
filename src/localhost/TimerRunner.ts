/**
 * Runs the captured timer-triggered functions locally the way the Functions host's timer listener
 * does: each at the times its NCRONTAB schedule names (UTC), at start-up too when `runOnStartup`
 * is set, one run of a function at a time (in Azure a timer function runs on one instance at a
 * time). The next occurrence is taken from when a run started and waited for once it has ended,
 * so an occurrence that passed while a run was going is run as soon as that run ends, once, not
 * skipped. A failed run is logged and the schedule goes on. The `Timer` a run is handed is the one
 * the host hands a Node.js function: the schedule status as it stood before the run, its times as
 * the host writes them, and no status at all for a function without a schedule monitor.
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

/** `last` and `lastUpdated` of a function that has not run yet: .NET's default date and time. */
const never = new Date('0001-01-01T00:00:00Z');

/** A status before the function's first start: replaced at start. */
const initialStatus: ScheduleStatus = { last: never, next: never, lastUpdated: never };

interface Scheduled {
  readonly fn: CapturedTimerFunction;
  readonly schedule: NcrontabSchedule;
  /** Whether the host keeps the schedule's status and hands it to each run (its schedule monitor). */
  readonly monitored: boolean;
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
      .map((fn) => {
        const schedule = NcrontabSchedule.parse(fn.schedule);
        return {
          fn,
          schedule,
          monitored: fn.useMonitor && !schedule.isSubMinute(this.#clock()),
          status: initialStatus,
          cancel: undefined,
          running: undefined,
        };
      });
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
      // Without a schedule monitor the host passes null, whatever the library's type says.
      scheduleStatus: (entry.monitored
        ? { last: hostDateTime(status.last), next: hostDateTime(status.next), lastUpdated: hostDateTime(status.lastUpdated) }
        : null) as Timer['scheduleStatus'],
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

/**
 * A time as the host writes the status's local times to a Node.js worker on a UTC machine (Azure's
 * default): ISO 8601 with a `+00:00` offset, fractional seconds without trailing zeros, none when
 * whole (Newtonsoft.Json's round-trip format), e.g. `2026-11-23T10:00:07.25+00:00`.
 */
function hostDateTime(time: Date): string {
  const [whole = '', fraction = ''] = time.toISOString().slice(0, -1).split('.');
  const digits = fraction.replace(/0+$/, '');
  return `${whole}${digits === '' ? '' : `.${digits}`}+00:00`;
}
