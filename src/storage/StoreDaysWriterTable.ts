import type { TableClient } from '@azure/data-tables';
import type { StoreDaysWriterState, StoreDaysWriters } from '../services/ports/StoreDaysWriters.js';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';
import { encodeKeyPart } from './tableKey.js';

interface WriterEntity {
  leaseId?: string;
  leaseUntil?: string;
  dirty: boolean;
  started: number;
  finished: number;
}

/** The state of each partner-date's store_days rewrites (see {@link StoreDaysWriters}): one row, in the partner's partition. */
export class StoreDaysWriterTable implements StoreDaysWriters {
  constructor(private readonly table: TableClient) {}

  async read(partnerId: string, businessDate: string): Promise<(StoreDaysWriterState & { etag: string }) | undefined> {
    try {
      const e = await this.table.getEntity<WriterEntity>(encodeKeyPart(partnerId), businessDate);
      return {
        ...(e.leaseId === undefined || e.leaseUntil === undefined ? {} : { leaseId: e.leaseId, leaseUntil: e.leaseUntil }),
        dirty: e.dirty,
        started: e.started,
        finished: e.finished,
        etag: e.etag,
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  async write(partnerId: string, businessDate: string, state: StoreDaysWriterState, etag: string | undefined): Promise<string | undefined> {
    const entity = {
      partitionKey: encodeKeyPart(partnerId),
      rowKey: businessDate,
      dirty: state.dirty,
      started: state.started,
      finished: state.finished,
      ...(state.leaseId === undefined || state.leaseUntil === undefined ? {} : { leaseId: state.leaseId, leaseUntil: state.leaseUntil }),
    };
    try {
      const written =
        etag === undefined ? await this.table.createEntity(entity) : await this.table.updateEntity(entity, 'Replace', { etag });
      if (written.etag === undefined) throw new Error('Table Storage answered a write without an ETag.');
      return written.etag;
    } catch (error) {
      if (isConflict(error) || isPreconditionFailed(error) || isNotFound(error)) return undefined;
      throw error;
    }
  }
}
