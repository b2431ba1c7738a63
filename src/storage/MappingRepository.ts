import type { TableClient } from '@azure/data-tables';
import { isNotFound } from './storageErrors.js';
import { encodeKeyPart } from './tableKey.js';
import { writeIfCurrent } from './writeIfCurrent.js';

/**
 * Which mapping upload is in effect for a partner. The entries themselves are the body of that
 * upload, kept in the raw batch store: one pointer row switches a whole replacement at once.
 */
export interface MappingPointer {
  readonly batchId: string;
  /** When the upload was first received (orders concurrent uploads). */
  readonly receivedAt: string;
  readonly updatedAt: string;
}

const rowKey = 'current';

export class MappingRepository {
  constructor(private readonly table: TableClient) {}

  async getPointer(partnerId: string): Promise<MappingPointer | undefined> {
    try {
      const e = await this.table.getEntity<MappingPointer>(encodeKeyPart(partnerId), rowKey);
      return { batchId: e.batchId, receivedAt: e.receivedAt, updatedAt: e.updatedAt };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** Points the partner's mapping at an upload unless a later-received upload is in effect. */
  async switchTo(partnerId: string, next: MappingPointer): Promise<'applied' | 'superseded'> {
    let outcome: 'applied' | 'superseded' = 'applied';
    await writeIfCurrent<MappingPointer>(this.table, encodeKeyPart(partnerId), rowKey, (current) => {
      outcome = current && current.batchId !== next.batchId && current.receivedAt > next.receivedAt ? 'superseded' : 'applied';
      return current?.batchId === next.batchId || outcome === 'superseded' ? undefined : { ...next };
    });
    return outcome;
  }
}
