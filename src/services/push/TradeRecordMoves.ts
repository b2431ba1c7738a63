import { createHash } from 'node:crypto';
import { compareVersions, type Versioned } from '../../domain/reconciliation/compareVersions.js';
import type { TradeRecordSummary } from '../../domain/reconciliation/TradeRecordSummary.js';
import { ApiError } from '../../errors/ApiError.js';
import { tableNames } from '../../storage/storageNames.js';
import { WriteContentionError } from '../../storage/WriteContentionError.js';
import type { HomeState, StoreDay, TradeRecordHome, TradeRecordHomes } from '../ports/TradeRecordHomes.js';
import { sameStoreDay } from '../ports/TradeRecordHomes.js';
import type { TradeRecords } from '../ports/TradeRecords.js';

/** A transaction of a push left out because another store-day counts the same trade_record_id. */
export interface HeldElsewhere extends StoreDay {
  /**
   * The other day holds a newer version (`stale`), the same version and last_modified_at
   * (`conflicting`), or an older one but is a day of a store HQ retired, which takes no change from
   * the partner (`retired`).
   */
  readonly reason: 'stale' | 'conflicting' | 'retired';
}

export interface TradeRecordMovesDependencies {
  readonly homes: TradeRecordHomes;
  readonly index: TradeRecords;
  /** Re-reconciles a closed day whose transactions changed. */
  readonly lateData: { batchCommitted(partnerId: string, storeId: string, businessDate: string, cause: string): Promise<unknown> };
  /** Whether a store takes changes from its partner: a transaction never moves out of a retired store's day. */
  readonly stores: { isActive(partnerId: string, storeId: string): Promise<boolean> };
}

/** Rounds of reading a row again after another push changed it first. */
const maxAttempts = 8;

/** What a push told to wait for another version's write is asked to wait: about one push's time. */
const retryAfterSeconds = 2;

/**
 * Keeps each trade_record_id of a partner counted on one store-day only (contract §2.7: the id is
 * unique within the partner, and the highest version wins). The index applies the version rule
 * within a store-day; this applies it between days, through the id's home (see
 * {@link TradeRecordHomes}), which only ever takes a newer stamp. After a push wrote a transaction
 * under its store-day:
 *
 * - the home is new: this day counts it (the claim runs beside the index write);
 * - this is the newest version sent anywhere: the home moves here, and the day it left has its
 *   row replaced by a mark of the move (see `markMoved`) and is reconciled again when closed;
 *   unless the day it would leave is a retired store's: that store's books are closed to the
 *   partner (a push naming it gets 403), so the transaction stays there and is left out here;
 * - another day holds a newer version, or the same one: the row just written here is deleted,
 *   and the push is told which day holds it.
 *
 * The day left stays in the home's `vacating` list until its row is marked, so a push replayed
 * after a crash, or the next version of the id, finishes the move. A mark keeps the version that
 * moved the transaction, so an older version written there later, even one whose write was
 * already under way, is refused there by the index's own version rule.
 */
export class TradeRecordMoves {
  constructor(private readonly deps: TradeRecordMovesDependencies) {}

  /** Notes `here` as the home of the records that have none; returns the homes that existed, by id. */
  claim(partnerId: string, here: StoreDay, records: readonly TradeRecordSummary[]): Promise<Map<string, TradeRecordHome>> {
    return this.deps.homes.claim(
      partnerId,
      here,
      records.map((record) => ({ tradeRecordId: record.trade_record_id, stamp: stampOf(record) })),
    );
  }

  /**
   * Settles every record written at `here` whose home `claim` found. Returns those left out here,
   * by trade_record_id.
   */
  async settle(
    partnerId: string,
    here: StoreDay,
    written: readonly TradeRecordSummary[],
    existing: ReadonlyMap<string, TradeRecordHome>,
  ): Promise<Map<string, HeldElsewhere>> {
    const held = new Map<string, HeldElsewhere>();
    await Promise.all(
      written.map(async (record) => {
        const home = existing.get(record.trade_record_id);
        if (!home) return;
        const outcome = await this.settleOne(partnerId, here, record, home);
        if (outcome) held.set(record.trade_record_id, outcome);
      }),
    );
    return held;
  }

  /**
   * The store-day each of `ids` moved to, for those whose row here is the mark of a move: a push the
   * index refused for them is told where they are counted.
   */
  async movedAmong(partnerId: string, here: StoreDay, ids: Iterable<string>): Promise<Map<string, StoreDay>> {
    const moved = new Map<string, StoreDay>();
    await Promise.all(
      [...ids].map(async (id) => {
        const row = await this.deps.index.getRecord(partnerId, here.storeId, here.businessDate, id);
        if (!row?.movedTo) return;
        // The mark names the day the id moved to then; after later moves its home names where it is now.
        const home = await this.deps.homes.get(partnerId, id);
        moved.set(id, home && !sameStoreDay(home, here) ? { storeId: home.storeId, businessDate: home.businessDate } : row.movedTo);
      }),
    );
    return moved;
  }

  /**
   * A batch failed after its claim: a home that still carries one of its stamps goes back to what
   * `here` holds now. It is deleted where `here` holds no row of the id, and takes the stamp of the
   * older version put back otherwise, so that no other day's version is compared with one never
   * counted. The batch's versions put back here (`restored`) are then settled like any write.
   */
  async release(
    partnerId: string,
    here: StoreDay,
    records: readonly TradeRecordSummary[],
    restored: readonly TradeRecordSummary[],
  ): Promise<void> {
    await Promise.all(
      records.map(async (record) => {
        const id = record.trade_record_id;
        const home = await this.deps.homes.get(partnerId, id);
        if (!home || !sameStoreDay(home, here) || home.vacating.length > 0 || compareVersions(home.stamp, record) !== 0) return;
        const row = await this.deps.index.getRecord(partnerId, here.storeId, here.businessDate, id);
        if (!row) await this.deps.homes.remove(partnerId, id, home.etag);
        else if (row.summary && compareVersions(row.summary, home.stamp) < 0) {
          await this.deps.homes.replace(partnerId, id, { ...home, stamp: stampOf(row.summary) }, home.etag);
        }
      }),
    );
    if (restored.length > 0) await this.settle(partnerId, here, restored, await this.claim(partnerId, here, restored));
  }

  private async settleOne(
    partnerId: string,
    here: StoreDay,
    record: TradeRecordSummary,
    found: TradeRecordHome,
  ): Promise<HeldElsewhere | undefined> {
    const id = record.trade_record_id;
    let home: TradeRecordHome | undefined = found;
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      if (!home) {
        // Released by a failed batch since it was read: claimed afresh.
        home = (await this.claim(partnerId, here, [record])).get(id);
        if (!home) return undefined;
      }
      const order = compareVersions(record, home.stamp);
      const elsewhere = !sameStoreDay(home, here);
      if (order > 0 && elsewhere && !(await this.deps.stores.isActive(partnerId, home.storeId))) {
        await this.requireWritten(partnerId, id, home);
        // A move into the retired day, accepted before the retirement and cut short, is still finished.
        await this.vacate(partnerId, id, home);
        await this.leaveHere(partnerId, here, record);
        return { storeId: home.storeId, businessDate: home.businessDate, reason: 'retired' };
      }
      if (order > 0) {
        // The newest version sent anywhere: the home takes its stamp, and moves here if it was elsewhere.
        const left = elsewhere ? [...home.vacating, home] : home.vacating;
        const next: HomeState = { ...here, stamp: stampOf(record), vacating: distinctDays(left).filter((day) => !sameStoreDay(day, here)) };
        const written = await this.deps.homes.replace(partnerId, id, next, home.etag);
        if (written) {
          await this.vacate(partnerId, id, written);
          return undefined;
        }
      } else if (!elsewhere) {
        // Counted here already (a replay, or an older copy the day's own rule kept out): finish any move left undone.
        await this.vacate(partnerId, id, home);
        return undefined;
      } else {
        await this.requireWritten(partnerId, id, home);
        await this.leaveHere(partnerId, here, record);
        return { storeId: home.storeId, businessDate: home.businessDate, reason: order < 0 ? 'stale' : 'conflicting' };
      }
      home = await this.deps.homes.get(partnerId, id);
    }
    throw new WriteContentionError(tableNames.tradeRecordHomes, maxAttempts);
  }

  /**
   * Marks the transaction moved on every day the home is vacating, has each reconciled again, and
   * then empties the list. Whoever changed the home meanwhile carried the list on: that push, or
   * its replay, finishes it.
   */
  private async vacate(partnerId: string, id: string, home: TradeRecordHome): Promise<void> {
    if (home.vacating.length === 0) return;
    for (const day of home.vacating) {
      await this.markMoved(partnerId, id, day, home);
      // The move's run is named by the transaction and the version that moved it: a replay finds it.
      await this.deps.lateData.batchCommitted(partnerId, day.storeId, day.businessDate, moveCause(id, home.stamp));
    }
    await this.deps.homes.replace(partnerId, id, { ...home, vacating: [] }, home.etag);
  }

  /** Replaces the row `day` holds for the id by the mark of its move, unless a newer version was sent there since. */
  private async markMoved(partnerId: string, id: string, day: StoreDay, home: TradeRecordHome): Promise<void> {
    const moved = { stamp: home.stamp, movedTo: { storeId: home.storeId, businessDate: home.businessDate } };
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const row = await this.deps.index.getRecord(partnerId, day.storeId, day.businessDate, id);
      // Marked already; or newer there, and that version's push takes the home and moves it back.
      if (row && (row.movedTo || compareVersions(row.summary, home.stamp) > 0)) return;
      if (await this.deps.index.markMoved(partnerId, day.storeId, day.businessDate, id, moved, row?.etag)) return;
    }
    throw new WriteContentionError(tableNames.tradeRecords, maxAttempts);
  }

  /**
   * A home's stamp is claimed beside its push's index write, so it may name a version still being
   * written, or one whose batch then fails. A record is left out only for a version its home's day
   * holds; otherwise the push answers 503 and its retry (or the sweep) decides once that write ended.
   */
  private async requireWritten(partnerId: string, id: string, home: TradeRecordHome): Promise<void> {
    const there = await this.deps.index.getRecord(partnerId, home.storeId, home.businessDate, id);
    if (there?.summary && compareVersions(there.summary, home.stamp) >= 0) return;
    throw new ApiError(
      'SERVICE_UNAVAILABLE',
      'Another version of a transaction in this batch is still being written under another store or business date; send the batch again shortly.',
      [],
      retryAfterSeconds,
    );
  }

  /** Deletes the row just written here for a record another day counts, unless a newer one replaced it meanwhile. */
  private async leaveHere(partnerId: string, here: StoreDay, record: TradeRecordSummary): Promise<void> {
    const ours = await this.deps.index.getRecord(partnerId, here.storeId, here.businessDate, record.trade_record_id);
    if (ours?.summary && compareVersions(ours.summary, record) === 0) {
      await this.deps.index.removeRecord(partnerId, here.storeId, here.businessDate, record.trade_record_id, ours.etag);
    }
  }
}

function stampOf(record: Versioned): Versioned {
  return { version: record.version, last_modified_at: record.last_modified_at };
}

function distinctDays(days: readonly StoreDay[]): StoreDay[] {
  return days.filter((day, i) => days.findIndex((other) => sameStoreDay(other, day)) === i);
}

/** The cause of the runs a transaction's move schedules on the days it leaves: the same on every replay of that move. */
function moveCause(tradeRecordId: string, stamp: Versioned): string {
  const digest = createHash('sha256').update(JSON.stringify([tradeRecordId, stamp.version, stamp.last_modified_at]), 'utf8');
  return `move-${digest.digest('hex').slice(0, 32)}`;
}
