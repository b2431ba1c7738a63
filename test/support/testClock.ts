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
