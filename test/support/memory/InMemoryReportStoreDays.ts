import type { ReportStoreDays } from '../../../src/services/ports/ReportStoreDays.js';
import type { StoreDayRow } from '../../../src/reports/ReconciledStoreDay.js';

/** Store-day rows in a map, by partner, date and store, for unit tests of services. */
export class InMemoryReportStoreDays implements ReportStoreDays {
  private readonly rows = new Map<string, Map<string, Map<string, StoreDayRow>>>();
  /** Each row's build stamp, by partner, date and store. */
  private readonly stamps = new Map<string, string>();

  putIfNewer(partnerId: string, businessDate: string, row: StoreDayRow, stamp: string): Promise<boolean> {
    let dates = this.rows.get(partnerId);
    if (!dates) {
      dates = new Map();
      this.rows.set(partnerId, dates);
    }
    let stores = dates.get(businessDate);
    if (!stores) {
      stores = new Map();
      dates.set(businessDate, stores);
    }
    const key = JSON.stringify([partnerId, businessDate, row.store_id]);
    const current = this.stamps.get(key);
    if (current !== undefined && current > stamp) return Promise.resolve(false);
    this.stamps.set(key, stamp);
    stores.set(row.store_id, structuredClone(row));
    return Promise.resolve(true);
  }

  async *listRange(partnerId: string, from?: string, to?: string): AsyncIterable<{ businessDate: string; row: StoreDayRow }> {
    const dates = [...(this.rows.get(partnerId) ?? new Map<string, Map<string, StoreDayRow>>())]
      .filter(([date]) => (from === undefined || date >= from) && (to === undefined || date <= to))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [businessDate, stores] of dates) {
      for (const row of [...stores.values()]) yield await Promise.resolve({ businessDate, row: structuredClone(row) });
    }
  }

  get(partnerId: string, businessDate: string, storeId: string): Promise<StoreDayRow | undefined> {
    const row = this.rows.get(partnerId)?.get(businessDate)?.get(storeId);
    return Promise.resolve(row === undefined ? undefined : structuredClone(row));
  }

  list(partnerId: string, businessDate: string): Promise<StoreDayRow[]> {
    const stores = this.rows.get(partnerId)?.get(businessDate);
    return Promise.resolve([...(stores?.values() ?? [])].map((row) => structuredClone(row)));
  }
}
