import type { MappingBatch, MappingEntry } from '../../domain/model/payloads.js';
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
    if (!body) throw new Error('The body of the mapping in effect is missing from the raw batch store.');
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
