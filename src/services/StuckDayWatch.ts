import type { Telemetry } from '../observability/Telemetry.js';
import type { Clock } from './ports/Clock.js';
import type { Reconciliations } from './ports/Reconciliations.js';
import { isStuckDay } from './isStuckDay.js';

/** Stuck days a report names by id; the count covers them all. */
const namedAtMost = 10;

/** A store-day the watch found stuck. */
export interface StuckDay {
  readonly partnerId: string;
  readonly storeId: string;
  readonly businessDate: string;
}

/**
 * Finds the store-days no run will reconcile by itself ({@link isStuckDay}). The poison watch sees a
 * failed message only while it exists: the host puts it there with a 7-day life, and HQ may delete
 * it or clear a queue. The day's row still says RECEIVED, so this reads the rows. It scans the
 * RECEIVED rows of every partner (a filter the table applies to all its rows), so it runs hourly.
 */
export class StuckDayWatch {
  constructor(
    private readonly results: Pick<Reconciliations, 'list'>,
    private readonly clock: Clock,
  ) {}

  /** Writes `reconcile_stuck_days` (0 included); resolves with the count and up to ten of the days. */
  async report(telemetry: Telemetry): Promise<{ stuck: number; named: StuckDay[] }> {
    const now = this.clock();
    let stuck = 0;
    const named: StuckDay[] = [];
    for await (const record of this.results.list({ status: 'RECEIVED' })) {
      if (!isStuckDay(record, now)) continue;
      stuck += 1;
      if (named.length < namedAtMost)
        named.push({ partnerId: record.partnerId, storeId: record.storeId, businessDate: record.businessDate });
    }
    telemetry.metric('reconcile_stuck_days', stuck);
    return { stuck, named };
  }
}
