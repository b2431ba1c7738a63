import { createHash } from 'node:crypto';
import { compareCodeUnits } from '../../domain/compareCodeUnits.js';
import type { Product } from '../../domain/model/payloads.js';
import { encodeProducts } from '../../reports/encodeProducts.js';
import { encodeStores, type StoreOfPartner } from '../../reports/encodeStores.js';
import { loadParquetWriter } from '../../reports/loadParquetWriter.js';
import { reportColumns } from '../../reports/reportColumns.js';
import { partnerDatasets, type PartnerDataset } from '../../reports/reportDatasets.js';
import type { Clock } from '../ports/Clock.js';
import type { PartnerFiles, PartnerFileWrite } from '../ports/PartnerFiles.js';
import type { Partners } from '../ports/Partners.js';
import type { ProductMasterData } from '../ports/ProductMasterData.js';
import type { StoreMasterData } from '../ports/StoreMasterData.js';
import type { StoreRegistrations } from '../ports/StoreRegistrations.js';

/** How many partners' files of one dataset a run wrote, found unchanged or removed. */
export interface DatasetCounts {
  readonly written: number;
  readonly unchanged: number;
  readonly removed: number;
}

/** What one run of {@link MasterDataReports.writeAll} did, dataset by dataset. */
export interface MasterDataReportsSummary {
  readonly partners: number;
  readonly datasets: Readonly<Record<PartnerDataset, DatasetCounts>>;
  /** Partners whose files could not be written this time (the next run tries again). */
  readonly failures: readonly { readonly partnerId: string; readonly error: unknown }[];
}

export interface MasterDataReportsDeps {
  readonly partners: Partners;
  readonly registrations: StoreRegistrations;
  readonly stores: StoreMasterData;
  readonly products: ProductMasterData;
  readonly files: PartnerFiles;
  readonly clock: Clock;
}

/**
 * The master-data datasets, one file per partner each, so BI tools can join the sales files to
 * them: `stores` (a row per store HQ registered, with the master data the partner last sent: name,
 * time zone, currency...) and `products` (a row per product as stored: names, category, price). A
 * file is rewritten only when what it is built from has changed (a digest of it is kept with it).
 */
export class MasterDataReports {
  constructor(private readonly deps: MasterDataReportsDeps) {}

  /** Writes both files of the partner, each if it changed. */
  async writePartner(partnerId: string): Promise<Record<PartnerDataset, PartnerFileWrite>> {
    const [stores, products] = await Promise.all([this.writeStores(partnerId), this.writeProducts(partnerId)]);
    return { stores, products };
  }

  /** Writes every partner's files in turn; a partner that fails is reported and the rest go on. */
  async writeAll(): Promise<MasterDataReportsSummary> {
    const partners = await this.deps.partners.list();
    const counts = Object.fromEntries(partnerDatasets.map((dataset) => [dataset, { written: 0, unchanged: 0, removed: 0 }])) as Record<
      PartnerDataset,
      { written: number; unchanged: number; removed: number }
    >;
    const failures: { partnerId: string; error: unknown }[] = [];
    for (const { partnerId } of partners) {
      try {
        const outcomes = await this.writePartner(partnerId);
        for (const dataset of partnerDatasets) {
          const outcome = outcomes[dataset];
          if (outcome !== 'none') counts[dataset][outcome] += 1;
        }
      } catch (error) {
        failures.push({ partnerId, error });
      }
    }
    return { partners: partners.length, datasets: counts, failures };
  }

  private async writeStores(partnerId: string): Promise<PartnerFileWrite> {
    const [registrations, stores] = await Promise.all([
      this.deps.registrations.listRegistrations(partnerId),
      this.deps.stores.list(partnerId),
    ]);
    const byId = new Map(stores.map((store) => [store.store_id, store]));
    const rows: StoreOfPartner[] = registrations
      .map((registration) => ({ registration, store: byId.get(registration.storeId) }))
      .sort((a, b) => compareCodeUnits(a.registration.storeId, b.registration.storeId));
    return this.deps.files.write('stores', partnerId, digest('stores', rows), async () =>
      encodeStores(await loadParquetWriter(), partnerId, rows, this.deps.clock()),
    );
  }

  private async writeProducts(partnerId: string): Promise<PartnerFileWrite> {
    const products: Product[] = (await this.deps.products.listProducts(partnerId)).sort(
      (a, b) => compareCodeUnits(a.product_id, b.product_id) || compareCodeUnits(a.store_id ?? '', b.store_id ?? ''),
    );
    return this.deps.files.write('products', partnerId, digest('products', products), async () =>
      encodeProducts(await loadParquetWriter(), partnerId, products, this.deps.clock()),
    );
  }
}

/**
 * How the encoders write a file. Raise it with any change to what encodeStores or encodeProducts
 * write for the same rows, so every file is rewritten at the next run; a change of the columns
 * themselves does that by itself (they are part of the digest).
 */
const masterDataFormat = 1;

/** What a file is built from and how, as a digest: equal inputs and format, equal key. */
function digest(dataset: PartnerDataset, rows: unknown): string {
  const format = { version: masterDataFormat, columns: reportColumns[dataset] };
  return createHash('sha256').update(JSON.stringify({ format, rows })).digest('base64url');
}
