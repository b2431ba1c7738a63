import type { TableClient, TransactionAction } from '@azure/data-tables';
import type { HomeClaim, HomeState, StoreDay, TradeRecordHome, TradeRecordHomes } from '../services/ports/TradeRecordHomes.js';
import { sendTableTransaction } from './sendTableTransaction.js';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';
import { encodeKeyPart, tableKey } from './tableKey.js';
import { actionSize, transactionChunks } from './transactionChunks.js';

/**
 * A partner's homes are spread over this many partitions by a hash of the id, so that one busy
 * partner is not held to one partition's throughput, while a 500-record push still writes its
 * homes in a handful of transactions. Changing it would lose every home written before.
 */
const partitionsPerPartner = 8;

/** Rounds of read-then-create a claim makes while other pushes keep creating the same ids. */
const maxClaimAttempts = 8;

/** An id to claim, with the create action of its home. */
interface PendingClaim {
  readonly tradeRecordId: string;
  readonly action: TransactionAction;
}

interface HomeEntity {
  storeId: string;
  businessDate: string;
  version: number;
  lastModifiedAt: string;
  /** JSON array of the store-days being vacated; absent when none. */
  vacating?: string;
}

/**
 * The home of every trade_record_id of a partner, one row per id (see {@link TradeRecordHomes}).
 * Rows are never listed, so a digested row key needs no id beside it.
 */
export class TradeRecordHomeTable implements TradeRecordHomes {
  constructor(private readonly table: TableClient) {}

  async claim(partnerId: string, here: StoreDay, claims: readonly HomeClaim[]): Promise<Map<string, TradeRecordHome>> {
    // Each id's create action is built once: it is measured for the chunks and sent as it is.
    const byPartition = new Map<string, PendingClaim[]>();
    for (const claim of claims) {
      const partitionKey = partitionOf(partnerId, claim.tradeRecordId);
      const group = byPartition.get(partitionKey) ?? [];
      group.push({ tradeRecordId: claim.tradeRecordId, action: createAction(partitionKey, claim, here) });
      byPartition.set(partitionKey, group);
    }
    const existing = new Map<string, TradeRecordHome>();
    const work = [...byPartition].flatMap(([partitionKey, group]) =>
      transactionChunks(group, (pending) => actionSize(pending.action)).map((chunk) => this.claimChunk(partitionKey, chunk, existing)),
    );
    // Every chunk is let finish before a failure is raised: no write of this call outlives it.
    const failed = (await Promise.allSettled(work)).find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
    return existing;
  }

  async get(partnerId: string, tradeRecordId: string): Promise<TradeRecordHome | undefined> {
    return this.read(partitionOf(partnerId, tradeRecordId), tradeRecordId);
  }

  async replace(partnerId: string, tradeRecordId: string, home: HomeState, etag: string): Promise<TradeRecordHome | undefined> {
    const entity = { partitionKey: partitionOf(partnerId, tradeRecordId), rowKey: encodeKeyPart(tradeRecordId), ...toEntity(home) };
    try {
      const written = await this.table.updateEntity(entity, 'Replace', { etag });
      if (written.etag === undefined) throw new Error('Table Storage answered an update without an ETag.');
      return { ...home, etag: written.etag };
    } catch (error) {
      if (isPreconditionFailed(error) || isNotFound(error)) return undefined;
      throw error;
    }
  }

  async remove(partnerId: string, tradeRecordId: string, etag: string): Promise<boolean> {
    try {
      await this.table.deleteEntity(partitionOf(partnerId, tradeRecordId), encodeKeyPart(tradeRecordId), { etag });
      return true;
    } catch (error) {
      if (isPreconditionFailed(error) || isNotFound(error)) return false;
      throw error;
    }
  }

  /** Creates the homes of one transaction's worth of ids; the common case (all new) is one request. */
  private async claimChunk(partitionKey: string, claims: PendingClaim[], existing: Map<string, TradeRecordHome>): Promise<void> {
    let unclaimed = claims;
    for (let attempt = 1; unclaimed.length > 0; attempt++) {
      try {
        await sendTableTransaction(
          this.table,
          unclaimed.map((claim) => claim.action),
        );
        return;
      } catch (error) {
        // A transaction stops at the first id that has a home: read them all, create the rest.
        if (!isConflict(error) || attempt >= maxClaimAttempts) throw error;
      }
      const homes = await Promise.all(unclaimed.map((claim) => this.read(partitionKey, claim.tradeRecordId)));
      unclaimed = unclaimed.filter((claim, i) => {
        const home = homes[i];
        if (home) existing.set(claim.tradeRecordId, home);
        return home === undefined;
      });
    }
  }

  private async read(partitionKey: string, tradeRecordId: string): Promise<TradeRecordHome | undefined> {
    try {
      const e = await this.table.getEntity<HomeEntity>(partitionKey, encodeKeyPart(tradeRecordId));
      return {
        storeId: e.storeId,
        businessDate: e.businessDate,
        stamp: { version: e.version, last_modified_at: e.lastModifiedAt },
        vacating: e.vacating ? (JSON.parse(e.vacating) as StoreDay[]) : [],
        etag: e.etag,
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}

function createAction(partitionKey: string, claim: HomeClaim, here: StoreDay): TransactionAction {
  const home = toEntity({ ...here, stamp: claim.stamp, vacating: [] });
  return ['create', { partitionKey, rowKey: encodeKeyPart(claim.tradeRecordId), ...home }];
}

function toEntity(home: HomeState): HomeEntity {
  return {
    storeId: home.storeId,
    businessDate: home.businessDate,
    version: home.stamp.version,
    lastModifiedAt: home.stamp.last_modified_at,
    ...(home.vacating.length > 0
      ? { vacating: JSON.stringify(home.vacating.map((day) => ({ storeId: day.storeId, businessDate: day.businessDate }))) }
      : {}),
  };
}

/** The partition of an id's home: the partner and a bucket from a stable hash (FNV-1a) of the id. */
function partitionOf(partnerId: string, tradeRecordId: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < tradeRecordId.length; i++) {
    hash ^= tradeRecordId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return tableKey(partnerId, String((hash >>> 0) % partitionsPerPartner));
}
