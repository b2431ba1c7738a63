/**
 * A partner's side of a store-day over real HTTP: master data first, then batches, then the close,
 * then the reconciliation result.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { DailyClose, TradeRecordBatch } from '../../../src/domain/model/payloads.js';
import type { Warning } from '../../../src/domain/model/Warning.js';
import { eventually, type TestPartner, type TestService } from '../../support/startTestService.js';
import { mappingBody, POS_CODES, storeBody } from './storeDayKit.js';
import { type CurrencyProfile, type StoreDay } from '../../fixtures/tradeRecordFixtures.js';
import {
  ackOf,
  finishedReconciliation,
  reconciliationOf,
  type FinishedReconciliation,
  type ReconciliationResult,
} from '../../support/responseBodies.js';

export interface PartnerSetup {
  readonly partner: TestPartner;
  /** One store-day per profile, in the order given. */
  readonly days: StoreDay[];
}

let dateCounter = 0;

/** Weeks of 2026 the dates are spread over: all of them lie in the past, as the contract requires of a business date. */
const dateWeeks = 45;

/**
 * A business date none of this process's last {@link dateWeeks} calls returned (spread over 2026).
 * A worker runs many test files one after another, so the counter wraps round rather than run into
 * the future.
 */
export function freshBusinessDate(): string {
  dateCounter = (dateCounter % dateWeeks) + 1;
  const date = new Date(Date.UTC(2026, 0, 1) + (dateCounter * 7 + (process.pid % 7)) * 86_400_000);
  return date.toISOString().slice(0, 10);
}

/** A fresh partner with one registered store per profile, stores uploaded, and the mapping uploaded. */
export async function setUpPartner(
  service: TestService,
  profiles: readonly CurrencyProfile[],
  mapping: Readonly<Record<string, string>> = POS_CODES,
): Promise<PartnerSetup> {
  const storeIds = profiles.map((p) => `${p.currency}-${randomUUID().slice(0, 6)}`);
  const partner = await service.createPartner({ stores: storeIds });
  const days = profiles.map((profile, i) => ({ profile, storeId: storeIds[i]!, businessDate: freshBusinessDate() }));
  const stores = await service.call(partner, 'PUT', 'stores', { batch_id: randomUUID(), stores: days.map(storeBody) });
  expect(stores.status, JSON.stringify(stores.body)).toBe(202);
  const mapped = await service.call(partner, 'PUT', 'mappings/transaction-types', mappingBody(mapping));
  expect(mapped.status, JSON.stringify(mapped.body)).toBe(202);
  return { partner, days };
}

/** Pushes a batch; expects 202 ACCEPTED and no AMOUNT_MISMATCH (the builder keeps the identity). */
export async function push(service: TestService, partner: TestPartner, batch: TradeRecordBatch): Promise<readonly Warning[]> {
  const res = await service.call(partner, 'POST', 'trade-records', batch);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  const { status, warnings } = ackOf(res);
  expect(status).toBe('ACCEPTED');
  expect(warnings.filter((w) => w.code === 'AMOUNT_MISMATCH')).toEqual([]);
  return warnings;
}

export async function sendClose(service: TestService, partner: TestPartner, close: DailyClose): Promise<void> {
  const res = await service.call(partner, 'POST', 'daily-close', close);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  expect(res.body).toMatchObject({ batch_id: close.batch_id, status: 'ACCEPTED', record_count: 1 });
}

export async function getResult(service: TestService, partner: TestPartner, day: StoreDay): Promise<ReconciliationResult> {
  const res = await service.call(partner, 'GET', `daily-close/${encodeURIComponent(day.storeId)}/${day.businessDate}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return reconciliationOf(res);
}

/**
 * Waits until the day is reconciled (MATCHED or MISMATCHED) and the result passes `accept`
 * (e.g. it is for the close just sent, or newer than an earlier result).
 */
export async function settled(
  service: TestService,
  partner: TestPartner,
  day: StoreDay,
  accept: (result: ReconciliationResult) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<FinishedReconciliation> {
  const result = await eventually(
    () => getResult(service, partner, day),
    (r) => (r.status === 'MATCHED' || r.status === 'MISMATCHED') && accept(r),
    timeoutMs,
  );
  expect(accept(result), JSON.stringify(result)).toBe(true);
  expect(['MATCHED', 'MISMATCHED'], JSON.stringify(result)).toContain(result.status);
  return finishedReconciliation(result);
}
