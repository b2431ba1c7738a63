import type { HomeClaim, HomeState, StoreDay, TradeRecordHome, TradeRecordHomes } from '../../../src/services/ports/TradeRecordHomes.js';

/** The homes of trade_record_ids in a map, for unit tests of services. */
export class InMemoryTradeRecordHomes implements TradeRecordHomes {
  private readonly homes = new Map<string, TradeRecordHome>();
  private writes = 0;

  claim(partnerId: string, here: StoreDay, claims: readonly HomeClaim[]): Promise<Map<string, TradeRecordHome>> {
    const existing = new Map<string, TradeRecordHome>();
    for (const { tradeRecordId, stamp } of claims) {
      const home = this.homes.get(key(partnerId, tradeRecordId));
      if (home) existing.set(tradeRecordId, home);
      else this.write(partnerId, tradeRecordId, { ...here, stamp, vacating: [] });
    }
    return Promise.resolve(existing);
  }

  get(partnerId: string, tradeRecordId: string): Promise<TradeRecordHome | undefined> {
    return Promise.resolve(this.homes.get(key(partnerId, tradeRecordId)));
  }

  replace(partnerId: string, tradeRecordId: string, home: HomeState, etag: string): Promise<TradeRecordHome | undefined> {
    if (this.homes.get(key(partnerId, tradeRecordId))?.etag !== etag) return Promise.resolve(undefined);
    return Promise.resolve(this.write(partnerId, tradeRecordId, home));
  }

  remove(partnerId: string, tradeRecordId: string, etag: string): Promise<boolean> {
    if (this.homes.get(key(partnerId, tradeRecordId))?.etag !== etag) return Promise.resolve(false);
    this.homes.delete(key(partnerId, tradeRecordId));
    return Promise.resolve(true);
  }

  private write(partnerId: string, tradeRecordId: string, home: HomeState): TradeRecordHome {
    this.writes += 1;
    const { storeId, businessDate, stamp, vacating } = home;
    const written = { storeId, businessDate, stamp, vacating: [...vacating], etag: `w${this.writes}` };
    this.homes.set(key(partnerId, tradeRecordId), written);
    return written;
  }
}

function key(partnerId: string, tradeRecordId: string): string {
  return JSON.stringify([partnerId, tradeRecordId]);
}
