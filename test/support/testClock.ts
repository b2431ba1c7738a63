import type { TimerScheduler } from '../../src/localhost/TimerScheduler.js';
import type { Clock } from '../../src/services/ports/Clock.js';

/** A clock that stands still until the test moves it. */
export interface TestClock extends Clock {
  advance(ms: number): void;
}

export function testClock(start: Date = new Date()): TestClock {
  let now = start.getTime();
  return Object.assign(() => new Date(now), {
    advance: (ms: number) => {
      now += ms;
    },
  });
}

/**
 * A clock that runs with real time, plus however far the test has moved it on: the service behaves
 * as usual, and a test skips a wait (a delay after which something counts as stale) by advancing it.
 */
export function movableClock(): TestClock {
  let offsetMs = 0;
  return Object.assign(() => new Date(Date.now() + offsetMs), {
    advance: (ms: number) => {
      offsetMs += ms;
    },
  });
}

/** A clock that stands still and timers on it that fire only as the test moves the clock on. */
export interface ManualTime {
  readonly clock: Clock;
  readonly scheduler: TimerScheduler;
  /**
   * Moves the clock on by `ms`, calling each timer that falls due on the way at its own time, and
   * lets the work those calls start run as far as it can without more time passing.
   */
  advance(ms: number): Promise<void>;
  /** Timers set and neither called nor cancelled. */
  pending(): number;
}

export function manualTime(start: Date): ManualTime {
  let now = start.getTime();
  let sequence = 0;
  interface Timer {
    readonly at: number;
    readonly callback: () => void;
  }
  const timers = new Map<number, Timer>();
  // A macrotask turn: every promise continuation queued so far has run by then.
  const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  return {
    clock: () => new Date(now),
    scheduler: (callback, ms) => {
      const id = sequence++;
      timers.set(id, { at: now + Math.max(ms, 0), callback });
      return () => {
        timers.delete(id);
      };
    },
    async advance(ms) {
      const target = now + ms;
      // The earliest timer due by the target; among those due at once, the one set first.
      const firstDue = (): [number, Timer] | undefined => {
        let first: [number, Timer] | undefined;
        for (const entry of timers) if (entry[1].at <= target && (first === undefined || entry[1].at < first[1].at)) first = entry;
        return first;
      };
      await settle();
      for (let due = firstDue(); due !== undefined; due = firstDue()) {
        const [id, timer] = due;
        timers.delete(id);
        now = timer.at;
        timer.callback();
        await settle();
      }
      now = target;
      await settle();
    },
    pending: () => timers.size,
  };
}
