import { performance } from 'node:perf_hooks';

/** Runs `once` for a warm-up (not counted: first-run compilation and connections), then `iterations` times, timing each (ms). */
export async function timeRuns(once: () => Promise<void>, iterations: number): Promise<number[]> {
  await once();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await once();
    times.push(performance.now() - started);
  }
  return times;
}

/** Runs `once` a single time with no warm-up (a first run is what is measured), timing it (ms). */
export async function timeOnce(once: () => Promise<void>): Promise<number[]> {
  const started = performance.now();
  await once();
  return [performance.now() - started];
}
