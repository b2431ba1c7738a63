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
