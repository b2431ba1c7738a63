/**
 * Store-days for the console's browser tests, made the way partners make them: store master data,
 * mapping, batches and daily closes through the partner API, partners and stores through the HQ
 * tool. Dates are in the past, so a day without a close is overdue.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { push, sendClose, settled } from '../../e2e/support/partnerFlow.js';
import { controlTotals, dailyClose, mappingBody, POS_CODES, shifted, storeBody, tradeBatch } from '../../e2e/support/storeDayKit.js';
import { buildRecord, JPY, USD, type StoreDay } from '../../fixtures/tradeRecordFixtures.js';
import type { TestPartner, TestService } from '../../support/startTestService.js';

export interface SeededDays {
  readonly from: string;
  readonly to: string;
  readonly partners: readonly TestPartner[];
  /** The USD store-day whose close claims more than was received (batch 2 missing, net sales off). */
  readonly mismatched: StoreDay & { readonly partnerId: string };
  /** The JPY store-day without a close (overdue). */
  readonly overdue: StoreDay & { readonly partnerId: string };
}

/** Four business dates of one week in the past. */
const dates = ['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05'] as const;
/** Before the first date's close falls due: the grid expects a close on every date. */
const registeredAt = new Date('2026-03-01T00:00:00Z');

export async function seedConsoleData(service: TestService): Promise<SeededDays> {
  const suffix = randomUUID().slice(0, 4);
  const usdStore = `NYC-${suffix}`;
  const jpyStore = `TYO-${suffix}`;
  const acme = await service.createPartner({ stores: [usdStore, jpyStore], registeredAt });
  const usd = (date: string): StoreDay => ({ profile: USD, storeId: usdStore, businessDate: date });
  const jpy = (date: string): StoreDay => ({ profile: JPY, storeId: jpyStore, businessDate: date });
  await masterData(service, acme, [usd(dates[0]), jpy(dates[0])]);

  const beta = await service.createPartner({ stores: [`LDN-${suffix}`], registeredAt });
  const usdBeta = (date: string): StoreDay => ({ profile: USD, storeId: `LDN-${suffix}`, businessDate: date });
  await masterData(service, beta, [usdBeta(dates[0])]);

  const closed: { partner: TestPartner; day: StoreDay }[] = [];
  const matchedDay = async (partner: TestPartner, day: StoreDay, records = 2) => {
    await sendMatchingDay(service, partner, day, records);
    closed.push({ partner, day });
  };
  // acme USD: matched, mismatched, matched, matched; acme JPY: matched, matched, no close, matched.
  await matchedDay(acme, usd(dates[0]), 3);
  const mismatched = usd(dates[1]);
  // With a code the mapping lacks and a payment type of no known direction, for the diagnosis.
  const odd = buildRecord(mismatched, {
    id: `${mismatched.storeId}-${mismatched.businessDate}-odd`,
    code: 'Z99',
    items: [{ product: 'P1', name: 'Item 1', qty: 1, unit: 500 }],
    payments: [{ type: 'MEAL_VOUCHER', amount: 'rest' }],
  });
  const sent = [...records(mismatched, 2), odd];
  await push(service, acme, tradeBatch(mismatched, 1, sent));
  // The close announces two batches and 5.00 more net sales than batch 1 carries.
  const claimed = shifted(USD, controlTotals(USD, sent, { mapping: POS_CODES }), 'net_sales_amount', 500);
  await sendClose(service, acme, dailyClose(mismatched, 2, claimed));
  closed.push({ partner: acme, day: mismatched });
  await matchedDay(acme, usd(dates[2]));
  await matchedDay(acme, usd(dates[3]), 4);
  await matchedDay(acme, jpy(dates[0]));
  await matchedDay(acme, jpy(dates[1]), 5);
  const overdue = jpy(dates[2]);
  await push(service, acme, tradeBatch(overdue, 1, records(overdue, 1)));
  await matchedDay(acme, jpy(dates[3]));
  for (const date of dates) await matchedDay(beta, usdBeta(date), 1 + (date.charCodeAt(9) % 3));

  for (const { partner, day } of closed) await settled(service, partner, day);
  return {
    from: dates[0],
    to: dates[3],
    partners: [acme, beta],
    mismatched: { ...mismatched, partnerId: acme.partnerId },
    overdue: { ...overdue, partnerId: acme.partnerId },
  };
}

async function masterData(service: TestService, partner: TestPartner, days: readonly StoreDay[]): Promise<void> {
  const stores = await service.call(partner, 'PUT', 'stores', { batch_id: randomUUID(), stores: days.map(storeBody) });
  expect(stores.status, JSON.stringify(stores.body)).toBe(202);
  const mapped = await service.call(partner, 'PUT', 'mappings/transaction-types', mappingBody(POS_CODES));
  expect(mapped.status, JSON.stringify(mapped.body)).toBe(202);
}

function records(day: StoreDay, count: number) {
  const unit = (n: number) => (day.profile.currency === 'USD' ? 1099 + n * 250 : 1200 + n * 300);
  return Array.from({ length: count }, (_, n) =>
    buildRecord(day, {
      id: `${day.storeId}-${day.businessDate}-${n + 1}`,
      code: 'S01',
      items: [{ product: `P${n + 1}`, name: `Item ${n + 1}`, qty: 1 + (n % 2), unit: unit(n) }],
    }),
  );
}

async function sendMatchingDay(service: TestService, partner: TestPartner, day: StoreDay, count: number): Promise<void> {
  const sent = records(day, count);
  await push(service, partner, tradeBatch(day, 1, sent));
  await sendClose(service, partner, dailyClose(day, 1, controlTotals(day.profile, sent, { mapping: POS_CODES })));
}
