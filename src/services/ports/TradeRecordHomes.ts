import type { Versioned } from '../../domain/reconciliation/compareVersions.js';

/** A store and business date of one partner. */
export interface StoreDay {
  readonly storeId: string;
  readonly businessDate: string;
}

/**
 * The store-day that counts a trade_record_id, and the newest version of it sent anywhere. Days
 * it moved away from stay listed in `vacating` until their rows are marked moved.
 */
export interface HomeState extends StoreDay {
  readonly stamp: Versioned;
  readonly vacating: readonly StoreDay[];
}

/** A home as read: its ETag guards the next change. */
export interface TradeRecordHome extends HomeState {
  readonly etag: string;
}

/** A transaction of a push, as a home claims it. */
export interface HomeClaim {
  readonly tradeRecordId: string;
  readonly stamp: Versioned;
}

/**
 * Where each trade_record_id of a partner is counted. The index keeps a transaction under its
 * store-day (DESIGN §4), while the contract makes the id unique within the partner (§2.7): a
 * version sent under another store or business date moves the transaction, and this is what
 * decides between the days. A home only ever takes a newer stamp, so it is the one order every
 * push agrees on.
 */
export interface TradeRecordHomes {
  /**
   * Notes `here` as the home of every id that has none yet. Returns the homes that existed, by
   * id (including those already `here`).
   */
  claim(partnerId: string, here: StoreDay, claims: readonly HomeClaim[]): Promise<Map<string, TradeRecordHome>>;
  get(partnerId: string, tradeRecordId: string): Promise<TradeRecordHome | undefined>;
  /** Replaces the home if it is still as read (`etag`): the home as written, or undefined when it changed meanwhile. */
  replace(partnerId: string, tradeRecordId: string, home: HomeState, etag: string): Promise<TradeRecordHome | undefined>;
  /** Deletes the home if it is still as read; false when it changed meanwhile. */
  remove(partnerId: string, tradeRecordId: string, etag: string): Promise<boolean>;
}

/** Whether two store-days are the same. */
export function sameStoreDay(a: StoreDay, b: StoreDay): boolean {
  return a.storeId === b.storeId && a.businessDate === b.businessDate;
}
