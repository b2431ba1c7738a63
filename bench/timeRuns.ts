import { performance } from 'node:perf_hooks';

/**
 * Runs `once` for a warm-up (not counted: first-run compilation and connections), then `iterations`
 * times, timing each (ms). `prepare`, when given, runs before each of them and is not timed.
 */
export async function timeRuns(once: () => Promise<void>, iterations: number, prepare?: () => Promise<void>): Promise<number[]> {
  await prepare?.();
  await once();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    await prepare?.();
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  return times;
}

/** Runs `once` a single time with no warm-up (a first run is what is measured), timing it (ms); `prepare` as above. */
export async function timeOnce(once: () => Promise<void>, prepare?: () => Promise<void>): Promise<number[]> {
  await prepare?.();
  const started = performance.now();
  await once();
  return [performance.now() - started];
}
