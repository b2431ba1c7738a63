import type { MappingBatch, MappingEntry } from '../../domain/model/payloads.js';
import { StorageError } from '../../errors/StorageError.js';
import type { MappingPointers } from '../ports/MappingPointers.js';
import type { RawBatches } from '../ports/RawBatches.js';

/** A partner's mapping in effect. */
export interface CurrentMapping {
  readonly batchId: string | null;
  readonly updatedAt: string | null;
  readonly entries: readonly MappingEntry[];
  /** source_code → standard_code */
  readonly byCode: ReadonlyMap<string, string>;
}

const none: CurrentMapping = { batchId: null, updatedAt: null, entries: [], byCode: new Map() };

/**
 * Reads a partner's mapping: one pointer read per call, and the upload's body (from the raw batch
 * store) only when the pointer moved since the last read. Nothing stale is ever served: the
 * cache is keyed by the upload in effect.
 */
export class MappingCatalog {
  private readonly cache = new Map<string, CurrentMapping>();

  constructor(
    private readonly pointers: MappingPointers,
    private readonly rawBatches: RawBatches,
  ) {}

  async current(partnerId: string): Promise<CurrentMapping> {
    const pointer = await this.pointers.getPointer(partnerId);
    if (!pointer) return none;
    const cached = this.cache.get(partnerId);
    if (cached?.batchId === pointer.batchId) return cached;
    const body = await this.rawBatches.get(partnerId, pointer.batchId);
    // The upload's raw body is gone (deleted by hand; HQ brings it back from soft delete). Until
    // then this is storage not giving what it holds: a push is answered 503 and sent again, a run
    // is retried and then waits in the poison queue. A 500 would tell the partner not to resend.
    if (!body) throw new StorageError('unavailable', 404, 'BlobNotFound');
    const entries = (JSON.parse(body.toString('utf8')) as MappingBatch).mappings;
    const mapping: CurrentMapping = {
      batchId: pointer.batchId,
      updatedAt: pointer.updatedAt,
      entries,
      byCode: new Map(entries.map((e) => [e.source_code, e.standard_code])),
    };
    this.cache.set(partnerId, mapping);
    return mapping;
  }
}
