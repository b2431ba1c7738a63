import { odata, type TableClient } from '@azure/data-tables';
import { isNotFound, isPreconditionFailed } from './storageErrors.js';
import { decodeKeyPart, encodeKeyPart } from './tableKey.js';

/**
 * An event whose delivery was given up, as HQ lists it: enough to see who, what, how often and
 * why, never the secret or the body (the body stays in the event store for a resend).
 */
export interface DeadLetter {
  readonly partnerId: string;
  readonly eventId: string;
  readonly eventType: string;
  /** Scheme, host and port of the endpoint; path and query may hold the partner's tokens and are left out. */
  readonly targetOrigin: string;
  readonly attempts: number;
  readonly lastErrorClass: string;
  readonly lastStatus?: number;
  readonly createdAt: string;
  readonly firstAttemptAt?: string;
  readonly lastAttemptAt?: string;
  readonly deadLetteredAt: string;
}

type DeadLetterEntity = { partitionKey: string; rowKey: string } & Omit<DeadLetter, 'partnerId' | 'eventId'>;

export class WebhookDeadLetterRepository {
  constructor(private readonly table: TableClient) {}

  /** Records the dead letter; recording the same event again (a retried message) overwrites it. */
  async add(deadLetter: DeadLetter): Promise<void> {
    const { partnerId, eventId, ...rest } = deadLetter;
    const entity: DeadLetterEntity = { partitionKey: encodeKeyPart(partnerId), rowKey: encodeKeyPart(eventId), ...rest };
    await this.table.upsertEntity(entity, 'Replace');
  }

  async get(partnerId: string, eventId: string): Promise<DeadLetter | undefined> {
    try {
      return toDeadLetter(await this.table.getEntity<DeadLetterEntity>(encodeKeyPart(partnerId), encodeKeyPart(eventId)));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Every dead letter's partner and event id: the keys alone are read. */
  async *listIds(): AsyncIterable<{ readonly partnerId: string; readonly eventId: string }> {
    for await (const row of this.table.listEntities({ queryOptions: { select: ['PartitionKey', 'RowKey'] } })) {
      yield { partnerId: decodeKeyPart(row.partitionKey ?? ''), eventId: decodeKeyPart(row.rowKey ?? '') };
    }
  }

  /**
   * Newest first; one partner's or everyone's, at most `limit`. The table is keyed by partner and
   * event, not by time, so every row is read; only the newest `limit` are kept while they go by.
   */
  async list(options: { partnerId?: string; limit: number }): Promise<DeadLetter[]> {
    const filter = options.partnerId === undefined ? undefined : odata`PartitionKey eq ${encodeKeyPart(options.partnerId)}`;
    const newestFirst = (a: DeadLetter, b: DeadLetter) =>
      b.deadLetteredAt.localeCompare(a.deadLetteredAt) || a.eventId.localeCompare(b.eventId);
    let kept: DeadLetter[] = [];
    for await (const entity of this.table.listEntities<DeadLetterEntity>(filter ? { queryOptions: { filter } } : {})) {
      kept.push(toDeadLetter(entity));
      if (kept.length >= 2 * options.limit) kept = kept.sort(newestFirst).slice(0, options.limit);
    }
    return kept.sort(newestFirst).slice(0, options.limit);
  }

  /**
   * Removes the record under the ETag it was read with and returns it; undefined when there is none
   * or another caller removed it first. A record replaced meanwhile (the event given up again) is
   * read again and taken as it is now.
   */
  async take(partnerId: string, eventId: string): Promise<DeadLetter | undefined> {
    const keys = [encodeKeyPart(partnerId), encodeKeyPart(eventId)] as const;
    for (;;) {
      let entity;
      try {
        entity = await this.table.getEntity<DeadLetterEntity>(...keys);
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
      try {
        await this.table.deleteEntity(...keys, { etag: entity.etag });
        return toDeadLetter(entity);
      } catch (error) {
        if (isNotFound(error)) return undefined;
        if (!isPreconditionFailed(error)) throw error;
      }
    }
  }

  /** Removes the record (after HQ resent or dismissed the event); false when there was none. */
  async remove(partnerId: string, eventId: string): Promise<boolean> {
    try {
      await this.table.deleteEntity(encodeKeyPart(partnerId), encodeKeyPart(eventId));
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }
}

function toDeadLetter(entity: DeadLetterEntity): DeadLetter {
  const deadLetter: DeadLetter = {
    partnerId: decodeKeyPart(entity.partitionKey),
    eventId: decodeKeyPart(entity.rowKey),
    eventType: entity.eventType,
    targetOrigin: entity.targetOrigin,
    attempts: entity.attempts,
    lastErrorClass: entity.lastErrorClass,
    createdAt: entity.createdAt,
    deadLetteredAt: entity.deadLetteredAt,
  };
  return {
    ...deadLetter,
    ...(typeof entity.lastStatus === 'number' ? { lastStatus: entity.lastStatus } : {}),
    ...(entity.firstAttemptAt ? { firstAttemptAt: entity.firstAttemptAt } : {}),
    ...(entity.lastAttemptAt ? { lastAttemptAt: entity.lastAttemptAt } : {}),
  };
}
