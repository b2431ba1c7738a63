import { createHash } from 'node:crypto';
import { compareCodeUnits } from '../../domain/compareCodeUnits.js';
import type { Product } from '../../domain/model/payloads.js';
import { encodeProducts } from '../../reports/encodeProducts.js';
import { encodeStores, type StoreOfPartner } from '../../reports/encodeStores.js';
import { loadParquetWriter } from '../../reports/loadParquetWriter.js';
import { reportColumns } from '../../reports/reportColumns.js';
import { partnerDatasets, type PartnerDataset } from '../../reports/reportDatasets.js';
import type { StandardTransactionType, StandardTransactionTypeList } from '../../domain/reference/standardTransactionTypes.js';
import { encodeTransactionTypeMappings, type MappingInEffect } from '../../reports/encodeTransactionTypeMappings.js';
import type { MappingCatalog } from '../catalog/MappingCatalog.js';
import type { Clock } from '../ports/Clock.js';
import type { PartnerFiles, PartnerFileWrite } from '../ports/PartnerFiles.js';
import type { Partners } from '../ports/Partners.js';
import type { ProductMasterData } from '../ports/ProductMasterData.js';
import type { StoreMasterData } from '../ports/StoreMasterData.js';
import type { StoreRegistrations } from '../ports/StoreRegistrations.js';
import { drainWithinBudget } from '../drainWithinBudget.js';

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
  /** Partners not started before the run's time budget ran out (the next run starts elsewhere in the list). */
  readonly notReached: number;
}

/**
 * How long a timer's run starts partners: well inside host.json's 5-minute `functionTimeout`,
 * whose expiry restarts the worker process with every request it serves, with room for the
 * partners under way to finish.
 */
export const masterDataRunBudgetMs = 180_000;

/** Partners written at once: each is a few listings and HEADs, mostly waiting on storage. */
const partnerConcurrency = 4;

export interface MasterDataReportsDeps {
  readonly partners: Partners;
  readonly registrations: StoreRegistrations;
  readonly stores: StoreMasterData;
  readonly products: ProductMasterData;
  readonly mappings: Pick<MappingCatalog, 'current'>;
  readonly files: PartnerFiles;
  readonly clock: Clock;
  /** The standard transaction-type list the mapping file reads each mapped code's type in (the service passes its own). */
  readonly standardTypes: StandardTransactionTypeList;
}

/**
 * The master-data datasets, one file per partner each, so BI tools can join the sales files to
 * them: `stores` (a row per store HQ registered, with the master data the partner last sent: name,
 * time zone, currency...), `products` (a row per product as stored: names, category, price) and
 * `transaction_type_mappings` (a row per code of the mapping in effect, with what the standard
 * list says of the code it names). A file is rewritten only when what it is built from has
 * changed (a digest of it is kept with it).
 */
export class MasterDataReports {
  /** The standard list by code: what a mapping's standard code is. */
  private readonly standardTypesByCode: ReadonlyMap<string, StandardTransactionType>;

  constructor(private readonly deps: MasterDataReportsDeps) {
    this.standardTypesByCode = new Map(deps.standardTypes.data.map((type) => [type.code, type]));
  }

  /**
   * Writes every file of the partner, each if it changed. A file that fails does not stop the
   * others; its error is thrown once all have ended, so no write outlives the call (a run's bound
   * on partners under way, and a timer's invocation, cover them all).
   */
  async writePartner(partnerId: string): Promise<Record<PartnerDataset, PartnerFileWrite>> {
    const [stores, products, transaction_type_mappings] = await Promise.allSettled([
      this.writeStores(partnerId),
      this.writeProducts(partnerId),
      this.writeMappings(partnerId),
    ]);
    return {
      stores: settledValue(stores),
      products: settledValue(products),
      transaction_type_mappings: settledValue(transaction_type_mappings),
    };
  }

  /**
   * Writes every partner's files, a few partners at once; a partner that fails is reported and the
   * rest go on. No partner is started after `budgetMs`. A run starts at a partner chosen at random
   * and goes round the list from there, so runs that stop at their budget do not leave the same
   * partners behind every time.
   */
  async writeAll(budgetMs: number): Promise<MasterDataReportsSummary> {
    const deadline = performance.now() + budgetMs;
    const partners = await this.deps.partners.list();
    const counts = Object.fromEntries(partnerDatasets.map((dataset) => [dataset, { written: 0, unchanged: 0, removed: 0 }])) as Record<
      PartnerDataset,
      { written: number; unchanged: number; removed: number }
    >;
    const failures: { partnerId: string; error: unknown }[] = [];
    const first = Math.floor(Math.random() * partners.length);
    const order = [...partners.slice(first), ...partners.slice(0, first)];
    const plan = { lanes: partnerConcurrency, deadline, now: () => performance.now() };
    const { taken } = await drainWithinBudget(order.values(), plan, async ({ partnerId }) => {
      try {
        const outcomes = await this.writePartner(partnerId);
        for (const dataset of partnerDatasets) {
          const outcome = outcomes[dataset];
          if (outcome !== 'none') counts[dataset][outcome] += 1;
        }
      } catch (error) {
        failures.push({ partnerId, error });
      }
    });
    return { partners: partners.length, datasets: counts, failures, notReached: order.length - taken };
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

  private async writeMappings(partnerId: string): Promise<PartnerFileWrite> {
    const current = await this.deps.mappings.current(partnerId);
    const mapping: MappingInEffect | undefined =
      current.batchId === null
        ? undefined
        : {
            batchId: current.batchId,
            updatedAt: current.updatedAt,
            entries: [...current.entries].sort((a, b) => compareCodeUnits(a.source_code, b.source_code)),
          };
    // What the standard list says of each code is part of what the file says (is_standard,
    // is_revenue): a list that changes it rewrites the file, whether or not its version moved.
    const standard = mapping?.entries.map((entry) => this.standardTypesByCode.get(entry.standard_code)?.is_revenue ?? null);
    const key = digest('transaction_type_mappings', { mapping, standard });
    return this.deps.files.write('transaction_type_mappings', partnerId, key, async () =>
      encodeTransactionTypeMappings(await loadParquetWriter(), partnerId, mapping, this.standardTypesByCode, this.deps.clock()),
    );
  }
}

/**
 * How the encoders write a file. Raise it with any change to what encodeStores, encodeProducts or
 * encodeTransactionTypeMappings write for the same rows, so every file is rewritten at the next
 * run; a change of the columns themselves does that by itself (they are part of the digest).
 */
const masterDataFormat = 1;

/** A settled promise's value; its error when it failed. */
function settledValue<T>(outcome: PromiseSettledResult<T>): T {
  if (outcome.status === 'rejected') throw outcome.reason;
  return outcome.value;
}

/** What a file is built from and how, as a digest: equal inputs and format, equal key. */
function digest(dataset: PartnerDataset, rows: unknown): string {
  const format = { version: masterDataFormat, columns: reportColumns[dataset] };
  return createHash('sha256').update(JSON.stringify({ format, rows })).digest('base64url');
}
