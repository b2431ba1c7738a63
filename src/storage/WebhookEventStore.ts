import { odata, type TableClient } from '@azure/data-tables';
import type { EventType } from '../events/eventTypes.js';
import { isConflict, isNotFound } from './storageErrors.js';
import { decodeKeyPart, encodeKeyPart, isDigestKeyPart } from './tableKey.js';

/** An event waiting for delivery: the exact body every attempt signs and sends. */
export interface StoredEvent {
  readonly partnerId: string;
  readonly eventId: string;
  readonly eventType: EventType;
  /** When the event was stored, or HQ last sent it again: the start of its window of delivery attempts. */
  readonly createdAt: string;
  readonly body: string;
}

/**
 * Largest event body kept, in bytes (UTF-8). A table row holds 1 MiB; a reconciliation result
 * (every list in it capped by the diagnosis) stays far below this.
 * @internal so that the in-memory port of the tests and the shared suite keep the same limit.
 */
export const maxEventBodyBytes = 256 * 1024;
/** A binary property holds at most 64 KiB; bodies are split over numbered properties. */
const chunkBytes = 60 * 1024;

/**
 * An event body over {@link maxEventBodyBytes}, refused before anything is written.
 * @internal so that the in-memory port of the tests and the shared suite throw and expect the same error.
 */
export class EventTooLargeError extends Error {
  constructor(readonly bytes: number) {
    super(`an event body of ${bytes} bytes is over the limit of ${maxEventBodyBytes}`);
    this.name = 'EventTooLargeError';
  }
}

interface EventEntity {
  partitionKey: string;
  rowKey: string;
  eventType: EventType;
  createdAt: string;
  bodyChunks: number;
  [chunk: `body${number}`]: Uint8Array;
}

/**
 * Events not yet delivered, by partner and event id. An event is stored once, before its first
 * delivery message, and removed once delivered or dropped; a dead-lettered event stays, so HQ can
 * send it again. Queue messages stay small and every retry signs the same bytes.
 */
export class WebhookEventStore {
  constructor(private readonly table: TableClient) {}

  /** Stores the event; 'exists' when it already is (the same id is the same event). */
  async add(event: StoredEvent): Promise<'created' | 'exists'> {
    // Kept as bytes (Edm.Binary): exactly what is signed, and no text decoding on the way.
    const bytes = Buffer.from(event.body, 'utf8');
    if (bytes.length > maxEventBodyBytes) throw new EventTooLargeError(bytes.length);
    const entity: EventEntity = {
      partitionKey: encodeKeyPart(event.partnerId),
      rowKey: encodeKeyPart(event.eventId),
      eventType: event.eventType,
      createdAt: event.createdAt,
      bodyChunks: 0,
    };
    for (let offset = 0; offset < bytes.length || entity.bodyChunks === 0; offset += chunkBytes) {
      entity[`body${entity.bodyChunks}`] = new Uint8Array(bytes.subarray(offset, offset + chunkBytes));
      entity.bodyChunks += 1;
    }
    try {
      await this.table.createEntity(entity);
      return 'created';
    } catch (error) {
      if (isConflict(error)) return 'exists';
      throw error;
    }
  }

  async get(partnerId: string, eventId: string): Promise<StoredEvent | undefined> {
    let entity: EventEntity;
    try {
      entity = await this.table.getEntity<EventEntity>(encodeKeyPart(partnerId), encodeKeyPart(eventId));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < entity.bodyChunks; i++) chunks.push(entity[`body${i}`] ?? new Uint8Array());
    const body = Buffer.concat(chunks).toString('utf8');
    return { partnerId, eventId, eventType: entity.eventType, createdAt: entity.createdAt, body };
  }

  /**
   * Every partner's events created before `before`, without their bodies: a filter on a column
   * the table applies to all its rows, which hold only events not yet delivered or given up.
   */
  async *listCreatedBefore(before: string): AsyncIterable<Omit<StoredEvent, 'body'>> {
    const rows = this.table.listEntities<Pick<EventEntity, 'eventType' | 'createdAt'>>({
      queryOptions: { filter: odata`createdAt lt ${before}`, select: ['PartitionKey', 'RowKey', 'eventType', 'createdAt'] },
    });
    for await (const row of rows) {
      // An id too long to spell out in a key has no place in this table (partner and event ids are short).
      if (isDigestKeyPart(row.partitionKey ?? '') || isDigestKeyPart(row.rowKey ?? '')) continue;
      yield {
        partnerId: decodeKeyPart(row.partitionKey ?? ''),
        eventId: decodeKeyPart(row.rowKey ?? ''),
        eventType: row.eventType,
        createdAt: row.createdAt,
      };
    }
  }

  /** Moves `createdAt` to `at`: HQ sent the event again, and its window of attempts starts anew. */
  async restartWindow(partnerId: string, eventId: string, at: string): Promise<boolean> {
    try {
      await this.table.updateEntity({ partitionKey: encodeKeyPart(partnerId), rowKey: encodeKeyPart(eventId), createdAt: at }, 'Merge', {
        etag: '*',
      });
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  async remove(partnerId: string, eventId: string): Promise<void> {
    try {
      await this.table.deleteEntity(encodeKeyPart(partnerId), encodeKeyPart(eventId));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}
