/**
 * `Promise.all(items.map(work))` with at most `concurrency` calls in flight; results in input order.
 * After a call fails no further call starts, and the first failure is thrown once the calls under
 * way have ended: no call outlives this one.
 */
export async function mapBounded<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const lanes = Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (!failed && next < items.length) {
      const index = next++;
      try {
        results[index] = await work(items[index] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  });
  const failure = (await Promise.allSettled(lanes)).find((outcome) => outcome.status === 'rejected');
  if (failure) throw failure.reason;
  return results;
}
