/** How a {@link drainWithinBudget} run ended. */
export interface DrainOutcome {
  /** Items handed to `work` (one the source gives after a failure is left, and not counted). */
  readonly taken: number;
  /** A lane found the deadline passed before it took another item: the source may hold more. */
  readonly stoppedAtBudget: boolean;
  /** What the source (its `next()`) or a call of `work` threw first; nothing was taken after it. */
  readonly failure?: { readonly reason: unknown };
}

/** How many calls at once, and until when items are taken. */
export interface DrainPlan {
  readonly lanes: number;
  /** On the `now` clock: no item is taken at or after it. */
  readonly deadline: number;
  /** A monotonic clock in milliseconds. */
  readonly now: () => number;
}

/**
 * Hands the items of `source` to `work`, `plan.lanes` calls at a time, each lane taking the next
 * item as soon as its call has ended, until the source is done or the deadline has passed: no item
 * is taken after it, and the calls under way finish. The timer jobs that work through a list
 * within a time budget (the sweep of pending batches, the master-data files) run on it.
 *
 * `work` deals with its own item's failure; should it throw, or the source fail, no lane takes
 * another item, and the failure is returned once the calls under way have ended: no call outlives
 * this one. The source is closed (`return()`) in every case.
 */
export async function drainWithinBudget<T>(
  source: Iterator<T> | AsyncIterator<T>,
  plan: DrainPlan,
  work: (item: T) => Promise<void>,
): Promise<DrainOutcome> {
  let taken = 0;
  let stoppedAtBudget = false;
  let sourceDone = false;
  let failure: { readonly reason: unknown } | undefined;
  // A call, so that each lane reads it anew after each wait: another lane may have failed meanwhile.
  const failed = (): boolean => failure !== undefined;
  const lane = async (): Promise<void> => {
    while (!sourceDone && !failed()) {
      if (plan.now() >= plan.deadline) {
        stoppedAtBudget = true;
        return;
      }
      try {
        const next = await source.next();
        if (next.done === true) {
          sourceDone = true;
          return;
        }
        // Another lane may have failed while this one waited for the source: its item is left.
        if (failed()) return;
        taken += 1;
        await work(next.value);
      } catch (error) {
        failure ??= { reason: error };
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: plan.lanes }, lane));
  await source.return?.();
  return { taken, stoppedAtBudget, ...(failure ? { failure } : {}) };
}
