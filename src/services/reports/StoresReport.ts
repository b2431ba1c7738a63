import { createHash } from 'node:crypto';
import { compareCodeUnits } from '../../domain/compareCodeUnits.js';
import { encodeStores, type StoreOfPartner } from '../../reports/encodeStores.js';
import { loadParquetWriter } from '../../reports/loadParquetWriter.js';
import type { Clock } from '../ports/Clock.js';
import type { Partners } from '../ports/Partners.js';
import type { StoreMasterData } from '../ports/StoreMasterData.js';
import type { StoreRegistrations } from '../ports/StoreRegistrations.js';
import type { StoresFiles, StoresFileWrite } from '../ports/StoresFiles.js';

/** What one run of {@link StoresReport.writeAll} did, partner by partner. */
export interface StoresReportSummary {
  readonly partners: number;
  readonly written: number;
  readonly unchanged: number;
  readonly removed: number;
  /** Partners whose file could not be written this time (the next run tries again). */
  readonly failures: readonly { readonly partnerId: string; readonly error: unknown }[];
}

export interface StoresReportDeps {
  readonly partners: Partners;
  readonly registrations: StoreRegistrations;
  readonly stores: StoreMasterData;
  readonly files: StoresFiles;
  readonly clock: Clock;
}

/**
 * The `stores` dataset: for each partner, one file with a row per store HQ registered for it and
 * the master data the partner last sent (name, time zone, currency...), so BI tools can join the
 * sales files to their stores. A file is rewritten only when what it is built from has changed.
 */
export class StoresReport {
  constructor(private readonly deps: StoresReportDeps) {}

  async writePartner(partnerId: string): Promise<StoresFileWrite> {
    const [registrations, stores] = await Promise.all([
      this.deps.registrations.listRegistrations(partnerId),
      this.deps.stores.list(partnerId),
    ]);
    const byId = new Map(stores.map((store) => [store.store_id, store]));
    const rows: StoreOfPartner[] = registrations
      .map((registration) => ({ registration, store: byId.get(registration.storeId) }))
      .sort((a, b) => compareCodeUnits(a.registration.storeId, b.registration.storeId));
    const contentKey = createHash('sha256').update(JSON.stringify(rows)).digest('base64url');
    return this.deps.files.write(partnerId, contentKey, async () =>
      encodeStores(await loadParquetWriter(), partnerId, rows, this.deps.clock()),
    );
  }

  /** Writes every partner's file in turn; a partner that fails is reported and the rest go on. */
  async writeAll(): Promise<StoresReportSummary> {
    const partners = await this.deps.partners.list();
    const counts = { written: 0, unchanged: 0, removed: 0 };
    const failures: { partnerId: string; error: unknown }[] = [];
    for (const { partnerId } of partners) {
      try {
        const outcome = await this.writePartner(partnerId);
        if (outcome !== 'none') counts[outcome] += 1;
      } catch (error) {
        failures.push({ partnerId, error });
      }
    }
    return { partners: partners.length, ...counts, failures };
  }
}
