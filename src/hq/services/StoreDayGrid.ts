import { closeDueAt } from '../../domain/reconciliation/closeDueAt.js';
import type { Store } from '../../domain/model/payloads.js';
import type { Partner } from '../../storage/PartnerRepository.js';
import type { ReconciliationRecord, ReconciliationStatus } from '../../storage/ReconciliationRepository.js';
import { hqLimits } from '../hqLimits.js';
import { mapBounded } from '../../services/mapBounded.js';
import { requireDateRange } from './requireDateRange.js';
import type { Partners } from '../../services/ports/Partners.js';
import type { StoreRegistrations } from '../../services/ports/StoreRegistrations.js';
import type { StoreRegistration } from '../../storage/StoreRegistrationRepository.js';
import type { StoreMasterData } from '../../services/ports/StoreMasterData.js';
import type { Reconciliations } from '../../services/ports/Reconciliations.js';
import { requireKnownPartner } from './requireKnownPartner.js';
import { compareCodeUnits } from '../../domain/compareCodeUnits.js';

export type GridStatus = 'NOT_RECEIVED' | ReconciliationStatus;

export interface GridCell {
  readonly business_date: string;
  readonly status: GridStatus;
  readonly overdue: boolean;
  readonly close_due_at: string;
  readonly close_received_at: string | null;
  readonly checked_at: string | null;
  readonly differences: readonly string[];
}

export interface GridRow {
  readonly partner_id: string;
  readonly store_id: string;
  readonly store_name: string | null;
  readonly currency: string | null;
  readonly time_zone: string | null;
  readonly active: boolean;
  readonly days: GridCell[];
}

export interface GridCursor {
  readonly partnerId: string;
  readonly storeId: string;
}

export interface GridQuery {
  readonly from: string;
  readonly to: string;
  readonly partnerId?: string | undefined;
  readonly status?: GridStatus | undefined;
  readonly overdue?: boolean | undefined;
  readonly limit: number;
  readonly after?: GridCursor | undefined;
}

export interface GridPage {
  /** The time overdue was judged at. */
  readonly generatedAt: string;
  readonly counts: Record<GridStatus | 'overdue', number>;
  readonly items: GridRow[];
  /** Where the next page starts; undefined on the last page. */
  readonly next: GridCursor | undefined;
}

/**
 * When a store's daily close is due, whether HQ expects it, and whether it is overdue: the one rule
 * grid and detail share. A close is expected when it falls due after the store was registered
 * (a registration made before their time was recorded expects every close) and, for a retired
 * store, before it was retired; outside that span the store could not send it, so a missing close
 * is not overdue.
 */
export function closeTiming(
  businessDate: string,
  store: Store | undefined,
  registration: Pick<StoreRegistration, 'registeredAt' | 'retiredAt'>,
  hasClose: boolean,
  now: Date,
): { readonly close_due_at: string; readonly expected: boolean; readonly overdue: boolean } {
  const due = closeDueAt(businessDate, { timeZone: store?.time_zone, workdayStart: store?.workday_start }, hqLimits.closeGraceHours);
  const { registeredAt, retiredAt } = registration;
  const expected =
    (registeredAt === null || due.getTime() > Date.parse(registeredAt)) && (retiredAt === null || due.getTime() < Date.parse(retiredAt));
  return { close_due_at: due.toISOString(), expected, overdue: expected && !hasClose && now.getTime() >= due.getTime() };
}

/**
 * The reconciliation grid: registered stores (rows) × business dates (cells), one page of stores
 * at a time in (partner_id, store_id) order. Active stores get a NOT_RECEIVED cell for each date
 * without a close whose close was expected (see {@link closeTiming}); inactive ones (the partner
 * inactive, the store INACTIVE in its master data, or retired by HQ) show only the dates that have
 * one.
 */
export class StoreDayGrid {
  constructor(
    private readonly partners: Partners,
    private readonly registrations: StoreRegistrations,
    private readonly stores: StoreMasterData,
    private readonly results: Reconciliations,
    private readonly clock: () => Date,
  ) {}

  async page(query: GridQuery): Promise<GridPage> {
    requireDateRange(query.from, query.to, this.clock());
    const dates = datesBetween(query.from, query.to);
    const { stores, next } = await this.storesOfPage(query);
    const now = this.clock();
    const rows = await mapBounded(stores, hqLimits.gridConcurrency, async ({ partner, registration }) => {
      const [store, records] = await Promise.all([
        this.stores.get(partner.partnerId, registration.storeId),
        this.results.listRange(partner.partnerId, registration.storeId, query.from, query.to),
      ]);
      return buildRow(partner, registration, store, records, dates, now, query);
    });
    const items = rows.filter((row): row is GridRow => row !== undefined);
    const counts: GridPage['counts'] = { NOT_RECEIVED: 0, RECEIVED: 0, MATCHED: 0, MISMATCHED: 0, overdue: 0 };
    for (const row of items) {
      for (const cell of row.days) {
        counts[cell.status] += 1;
        if (cell.overdue) counts.overdue += 1;
      }
    }
    return { generatedAt: now.toISOString(), counts, items, next };
  }

  /** Up to `limit` registered stores after the cursor, and the cursor of the page after them. */
  private async storesOfPage(query: GridQuery): Promise<{ stores: RegisteredStore[]; next: GridCursor | undefined }> {
    let partners: Partner[];
    if (query.partnerId !== undefined) {
      partners = [await requireKnownPartner(this.partners, query.partnerId)];
    } else {
      partners = (await this.partners.list()).sort((a, b) => compareCodeUnits(a.partnerId, b.partnerId));
    }
    const after = query.after;
    const stores: RegisteredStore[] = [];
    for (const partner of partners) {
      if (after && compareCodeUnits(partner.partnerId, after.partnerId) < 0) continue;
      for (const registration of await this.registrations.listRegistrations(partner.partnerId)) {
        if (after?.partnerId === partner.partnerId && compareCodeUnits(registration.storeId, after.storeId) <= 0) continue;
        if (stores.length === query.limit) {
          const last = stores.at(-1);
          return { stores, next: last ? { partnerId: last.partner.partnerId, storeId: last.registration.storeId } : undefined };
        }
        stores.push({ partner, registration });
      }
    }
    return { stores, next: undefined };
  }
}

interface RegisteredStore {
  readonly partner: Partner;
  readonly registration: StoreRegistration;
}

function buildRow(
  partner: Partner,
  registration: StoreRegistration,
  store: Store | undefined,
  records: readonly ReconciliationRecord[],
  dates: readonly string[],
  now: Date,
  query: GridQuery,
): GridRow | undefined {
  const { storeId } = registration;
  const active = partner.status === 'ACTIVE' && store?.status !== 'INACTIVE' && registration.status === 'ACTIVE';
  const byDate = new Map(records.map((r) => [r.businessDate, r]));
  const days: GridCell[] = [];
  for (const date of dates) {
    const record = byDate.get(date);
    if (!record && !active) continue;
    const { expected, ...timing } = closeTiming(date, store, registration, record !== undefined, now);
    if (!record && !expected) continue;
    const cell: GridCell = {
      business_date: date,
      status: record?.status ?? 'NOT_RECEIVED',
      ...timing,
      close_received_at: record?.closeReceivedAt ?? null,
      checked_at: record && record.status !== 'RECEIVED' ? record.checkedAt : null,
      differences: record?.status === 'MISMATCHED' ? record.differences : [],
    };
    if (query.status !== undefined && cell.status !== query.status) continue;
    if (query.overdue !== undefined && cell.overdue !== query.overdue) continue;
    days.push(cell);
  }
  if (days.length === 0 && (!active || query.status !== undefined || query.overdue !== undefined)) return undefined;
  return {
    partner_id: partner.partnerId,
    store_id: storeId,
    store_name: store?.store_name ?? null,
    currency: store?.currency ?? null,
    time_zone: store?.time_zone ?? null,
    active,
    days,
  };
}

/** Every date from `from` to `to` inclusive (both valid, `from` ≤ `to`). */
function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    dates.push(new Date(t).toISOString().slice(0, 10));
  }
  return dates;
}
