import type { MappingEntry } from '../domain/model/payloads.js';
import type { MappingCatalog } from './catalog/MappingCatalog.js';

/** GET /mappings/transaction-types body (contract §2.5). */
export interface CurrentMappingBody {
  readonly partner_id: string;
  readonly batch_id: string | null;
  readonly updated_at: string | null;
  readonly mappings: readonly MappingEntry[];
}

export class MappingQuery {
  constructor(private readonly catalog: MappingCatalog) {}

  async get(partnerId: string): Promise<CurrentMappingBody> {
    const mapping = await this.catalog.current(partnerId);
    return { partner_id: partnerId, batch_id: mapping.batchId, updated_at: mapping.updatedAt, mappings: mapping.entries };
  }
}
