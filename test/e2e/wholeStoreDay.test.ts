/**
 * Whole store-days over real HTTP against the storage emulator: a New York store (USD, prices
 * exclude tax) and a Tokyo store (JPY, prices include tax) push several batches, send a daily
 * close whose control totals the test computed in integer minor units, and get MATCHED with
 * `actual` equal to `expected`. Then the one-minor-unit tolerance in both currencies.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TradeRecord } from '../../src/domain/model/payloads.js';
import { startTestService, type TestService } from '../support/startTestService.js';
import { push, sendClose, settled, setUpPartner } from './support/partnerFlow.js';
import { controlTotals, dailyClose, POS_CODES, shifted, tradeBatch } from './support/storeDayKit.js';
import { buildRecord, JPY, USD, type StoreDay } from '../fixtures/tradeRecordFixtures.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

const burgerComboChildren = [
  { product: 'P-DOUBLE', name: 'Double Burger', type: 'SINGLE' as const },
  { product: 'P-FRIES-M', name: 'Medium Fries', type: 'SIDE' as const },
  { product: 'P-COLA-L', name: 'Large Cola', type: 'DRINK' as const },
];

/** A New York day in three batches; returns the batches' records in push order. */
function usdDay(day: StoreDay): TradeRecord[][] {
  const r = (spec: Parameters<typeof buildRecord>[1]) => buildRecord(day, spec);
  const t = (hhmm: string) => `${day.businessDate}T${hhmm}:00-05:00`;
  const batch1 = [
    // Combo with a drink upgrade (+0.50 in the combo price), its three child lines, and a
    // cheeseburger with an extra-cheese modifier; tip on the card.
    r({
      id: 'U1',
      code: 'S01',
      items: [
        {
          product: 'P-COMBO-DBL',
          name: 'Double Burger Combo',
          type: 'COMBO',
          qty: 1,
          unit: 1149,
          modifiers: [{ group: 'MG-DRINK', option: 'OPT-LARGE', name: 'Large drink', delta: 50 }],
          children: burgerComboChildren,
        },
        {
          product: 'P-CHEESE',
          name: 'Cheeseburger',
          qty: 2,
          unit: 624,
          modifiers: [{ group: 'MG-EXTRAS', option: 'OPT-CHEESE', delta: 75 }],
        },
      ],
      tip: 300,
    }),
    // Version 1 of a record that is corrected later.
    r({
      id: 'U2',
      code: 'S01',
      modifiedAt: t('12:00'),
      items: [
        { product: 'P-SALAD', name: 'Caesar Salad', qty: 1, unit: 895 },
        { product: 'P-TEA', name: 'Iced Tea', qty: 2, unit: 295, discount: 50 },
      ],
      orderDiscount: 100,
      payments: [{ type: 'SALE', method: 'CASH', amount: 'rest' }],
      rounding: -2,
    }),
    // A void: never revenue, no payments; its rows still count.
    r({
      id: 'U3',
      code: 'V09',
      status: 'VOIDED',
      items: [{ product: 'P-CHEESE', name: 'Cheeseburger', qty: 1, unit: 549, voided: true }],
      payments: [],
    }),
    // A no-sale: the drawer opened without a sale.
    r({ id: 'U4', code: 'NS10', items: [{ product: 'NO-SALE', name: 'No sale', qty: 1, unit: 0 }], payments: [] }),
  ];
  const batch2 = [
    // Party of eight: service charge and a tip.
    r({
      id: 'U5',
      code: 'S01',
      items: [
        { product: 'P-COMBO-DBL', name: 'Double Burger Combo', type: 'COMBO', qty: 4, unit: 1099, children: burgerComboChildren },
        { product: 'P-WINGS', name: 'Wings Platter', qty: 2, unit: 1495 },
        { product: 'P-SHAKE', name: 'Milkshake', qty: 4, unit: 575, discount: 100 },
      ],
      serviceCharge: 1449,
      tip: 1000,
    }),
    // Version 2 of U2: a cookie added, paid by card.
    r({
      id: 'U2',
      code: 'S01',
      version: 2,
      modifiedAt: t('12:10'),
      items: [
        { product: 'P-SALAD', name: 'Caesar Salad', qty: 1, unit: 895 },
        { product: 'P-TEA', name: 'Iced Tea', qty: 2, unit: 295, discount: 50 },
        { product: 'P-COOKIE', name: 'Cookie', qty: 1, unit: 199 },
      ],
      orderDiscount: 100,
    }),
    // Catering deposit taken in cash: not revenue, money in.
    r({
      id: 'U6',
      code: 'DP20',
      items: [{ product: 'P-CATER-DEP', name: 'Catering deposit', qty: 1, unit: 5000 }],
      tax: 0,
      payments: [{ type: 'DEPOSIT', method: 'CASH', amount: 5000 }],
    }),
    // Return of one modified cheeseburger from U1: negative amounts, refunded to the card.
    r({
      id: 'U7',
      code: 'RT03',
      original: 'U1',
      items: [
        {
          product: 'P-CHEESE',
          name: 'Cheeseburger',
          qty: -1,
          unit: 624,
          modifiers: [{ group: 'MG-EXTRAS', option: 'OPT-CHEESE', delta: 75 }],
        },
      ],
    }),
  ];
  const batch3 = [
    // Catering pick-up: the deposit applied (not counted again), the rest on the card.
    r({
      id: 'U8',
      code: 'S01',
      orderType: 'PICK_UP',
      items: [{ product: 'P-CATER-TRAY', name: 'Catering Tray', qty: 1, unit: 12000 }],
      payments: [
        { type: 'DEPOSIT_APPLIED', method: 'CASH', amount: 5000 },
        { type: 'SALE', method: 'CREDIT_CARD', amount: 'rest' },
      ],
    }),
    // Partial refund of U5 (one milkshake), with the original business date.
    r({
      id: 'U9',
      code: 'R02',
      original: 'U5',
      status: 'COMPLETED',
      items: [{ product: 'P-SHAKE', name: 'Milkshake', qty: -1, unit: 575, discount: -25 }],
    }),
    // Exchange, new item dearer: the difference collected as SALE.
    r({
      id: 'U10',
      code: 'EX04',
      original: 'U1',
      items: [
        { product: 'P-FRIES-M', name: 'Medium Fries', qty: -1, unit: 279 },
        { product: 'P-RINGS', name: 'Onion Rings', qty: 1, unit: 349 },
      ],
    }),
    // Exchange at equal price: no payments.
    r({
      id: 'U11',
      code: 'EX04',
      original: 'U5',
      items: [
        { product: 'P-SHAKE-VAN', name: 'Vanilla Shake', qty: -1, unit: 575 },
        { product: 'P-SHAKE-CHO', name: 'Chocolate Shake', qty: 1, unit: 575 },
      ],
    }),
    // A stale replay of U2 version 1, after version 2: ignored.
    r({
      id: 'U2',
      code: 'S01',
      modifiedAt: t('12:00'),
      items: [
        { product: 'P-SALAD', name: 'Caesar Salad', qty: 1, unit: 895 },
        { product: 'P-TEA', name: 'Iced Tea', qty: 2, unit: 295, discount: 50 },
      ],
      orderDiscount: 100,
      payments: [{ type: 'SALE', method: 'CASH', amount: 'rest' }],
      rounding: -2,
    }),
  ];
  return [batch1, batch2, batch3];
}

/** A Tokyo day (prices include 10 % consumption tax) in three batches. */
function jpyDay(day: StoreDay): TradeRecord[][] {
  const r = (spec: Parameters<typeof buildRecord>[1]) => buildRecord(day, spec);
  const t = (hhmm: string) => `${day.businessDate}T${hhmm}:00+09:00`;
  const setChildren = [
    { product: 'J-TERIYAKI', name: 'テリヤキバーガー', type: 'SINGLE' as const },
    { product: 'J-POTATO-M', name: 'ポテトM', type: 'SIDE' as const },
    { product: 'J-OOLONG-L', name: 'ウーロン茶L', type: 'DRINK' as const },
  ];
  const batch1 = [
    // Set with a drink upgrade (+60 yen), paid partly with loyalty points.
    r({
      id: 'J1',
      code: 'S01',
      items: [
        {
          product: 'J-SET-TERI',
          name: 'テリヤキバーガーセット',
          type: 'COMBO',
          qty: 1,
          unit: 850,
          modifiers: [{ group: 'MG-DRINK-SIZE', option: 'OPT-L', name: 'Lサイズ', delta: 60 }],
          children: setChildren,
        },
        { product: 'J-NUGGET', name: 'ナゲット', qty: 1, unit: 290, modifiers: [{ group: 'MG-SAUCE', option: 'OPT-MUSTARD', delta: 0 }] },
      ],
      payments: [
        { type: 'SALE', method: 'LOYALTY_POINTS', amount: 100 },
        { type: 'SALE', method: 'CASH', amount: 'rest' },
      ],
    }),
    // Table service: service charge, a tip, and a rounding discount.
    r({
      id: 'J2',
      code: 'S01',
      items: [
        { product: 'J-KARAAGE', name: 'から揚げ', qty: 2, unit: 320 },
        { product: 'J-BEER', name: '生ビール', qty: 3, unit: 550, discount: 50 },
      ],
      serviceCharge: 215,
      tip: 200,
      rounding: -5,
    }),
    r({ id: 'J3', code: 'V09', status: 'VOIDED', items: [{ product: 'J-BEER', name: '生ビール', qty: 1, unit: 550 }], payments: [] }),
    r({ id: 'J4', code: 'S01', modifiedAt: t('12:00'), items: [{ product: 'J-CURRY', name: 'カレー', qty: 1, unit: 980 }] }),
  ];
  const batch2 = [
    r({
      id: 'J4',
      code: 'S01',
      version: 2,
      modifiedAt: t('12:05'),
      items: [
        { product: 'J-CURRY', name: 'カレー', qty: 1, unit: 980 },
        { product: 'J-SALAD', name: 'サラダ', qty: 1, unit: 300 },
      ],
      orderDiscount: 100,
    }),
    r({ id: 'J5', code: 'RT03', original: 'J1', items: [{ product: 'J-NUGGET', name: 'ナゲット', qty: -1, unit: 290 }] }),
    r({ id: 'J6', code: 'R02', original: 'J2', items: [{ product: 'J-BEER', name: '生ビール', qty: -1, unit: 550, discount: -50 }] }),
    // Exchange, new item cheaper: the difference refunded.
    r({
      id: 'J7',
      code: 'EX04',
      original: 'J4',
      items: [
        { product: 'J-CURRY', name: 'カレー', qty: -1, unit: 980 },
        { product: 'J-UDON', name: 'うどん', qty: 1, unit: 680 },
      ],
    }),
    r({
      id: 'J8',
      code: 'DP20',
      items: [{ product: 'J-PARTY-DEP', name: '予約金', qty: 1, unit: 3000 }],
      tax: 0,
      payments: [{ type: 'DEPOSIT', method: 'CASH', amount: 3000 }],
    }),
  ];
  const batch3 = [
    r({
      id: 'J9',
      code: 'S01',
      orderType: 'PICK_UP',
      items: [{ product: 'J-PARTY', name: 'パーティーセット', qty: 1, unit: 8800 }],
      payments: [
        { type: 'DEPOSIT_APPLIED', method: 'CASH', amount: 3000 },
        { type: 'SALE', method: 'CREDIT_CARD', amount: 'rest' },
      ],
    }),
    r({ id: 'J10', code: 'NS10', items: [{ product: 'NO-SALE', name: 'ノーセール', qty: 1, unit: 0 }], payments: [] }),
    r({ id: 'J4', code: 'S01', modifiedAt: t('12:00'), items: [{ product: 'J-CURRY', name: 'カレー', qty: 1, unit: 980 }] }),
  ];
  return [batch1, batch2, batch3];
}

async function pushDay(partner: Parameters<typeof push>[1], day: StoreDay, batches: TradeRecord[][]): Promise<TradeRecord[]> {
  const sent: TradeRecord[] = [];
  for (const [i, records] of batches.entries()) {
    const warnings = await push(service, partner, tradeBatch(day, i + 1, records));
    if (i === batches.length - 1) {
      // The last batch ends with the stale replay of version 1.
      expect(warnings).toContainEqual(expect.objectContaining({ code: 'STALE_VERSION', path: `trade_records[${records.length - 1}]` }));
    }
    sent.push(...records);
  }
  return sent;
}

describe('whole store-days', () => {
  it('USD (tax excluded) and JPY (tax included) days reconcile to MATCHED with actual equal to expected', async () => {
    const { partner, days } = await setUpPartner(service, [USD, JPY]);
    const [usd, jpy] = days as [StoreDay, StoreDay];
    const usdSent = await pushDay(partner, usd, usdDay(usd));
    const jpySent = await pushDay(partner, jpy, jpyDay(jpy));

    const usdTotals = controlTotals(USD, usdSent, { mapping: POS_CODES });
    const jpyTotals = controlTotals(JPY, jpySent, { mapping: POS_CODES });
    // The same figures summed by hand from the records above, line by line:
    // USD net 23.97 + 15.34 + 110.35 − 6.24 + 120.00 − 5.50 + 0.70 + 0 (U1, U2 v2, U5, U7–U11);
    // USD payments 29.10 + 16.70 + 130.14 + 50.00 (deposit) − 6.79 + 80.65 − 5.99 + 0.76;
    // JPY net 1036 + 2227 + 1073 − 264 − 455 − 273 + 8000; JPY payments
    // 100 + 1040 + 2650 + 1180 − 290 − 500 − 300 + 3000 (deposit) + 5800.
    expect(usdTotals).toEqual({
      trade_record_count: 11,
      item_row_count: 24,
      payment_row_count: 9,
      net_sales_amount: '258.62',
      tax_amount: '22.95',
      tip_amount: '13.00',
      payment_total_amount: '294.57',
    });
    expect(jpyTotals).toEqual({
      trade_record_count: 10,
      item_row_count: 17,
      payment_row_count: 10,
      net_sales_amount: '11344',
      tax_amount: '1136',
      tip_amount: '200',
      payment_total_amount: '12680',
    });

    const usdClose = dailyClose(usd, 3, usdTotals);
    const jpyClose = dailyClose(jpy, 3, jpyTotals);
    await Promise.all([sendClose(service, partner, usdClose), sendClose(service, partner, jpyClose)]);

    for (const [day, totals] of [
      [usd, usdTotals],
      [jpy, jpyTotals],
    ] as const) {
      const result = await settled(service, partner, day);
      expect(result).toMatchObject({ store_id: day.storeId, business_date: day.businessDate, status: 'MATCHED', differences: [] });
      expect(result.expected).toEqual(totals);
      expect(result.actual).toEqual(result.expected);
      expect(Date.parse(result.checked_at)).not.toBeNaN();
      expect(result.diagnosis).toMatchObject({
        missing_batch_seqs: [],
        unmapped_transaction_types: [],
        unknown_payment_types: [],
        hints: [],
      });
    }
  });

  describe('tolerance of one minor unit', () => {
    for (const profile of [USD, JPY]) {
      it(`${profile.currency}: one unit off on an amount is MATCHED, two units off is MISMATCHED`, async () => {
        const { partner, days } = await setUpPartner(service, [profile, profile, profile]);
        const [plusOne, minusOne, plusTwo] = days as [StoreDay, StoreDay, StoreDay];
        const totalsOf: Record<string, ReturnType<typeof controlTotals>> = {};
        for (const day of days) {
          const records = [
            buildRecord(day, {
              id: `A1-${day.storeId}`,
              code: 'S01',
              items: [{ product: 'X1', name: 'Item', qty: 3, unit: profile.digits === 2 ? 1299 : 1280 }],
              tip: profile.digits === 2 ? 200 : 0,
            }),
            buildRecord(day, {
              id: `A2-${day.storeId}`,
              code: 'RT03',
              items: [{ product: 'X1', name: 'Item', qty: -1, unit: profile.digits === 2 ? 1299 : 1280 }],
            }),
          ];
          await push(service, partner, tradeBatch(day, 1, records));
          totalsOf[day.storeId] = controlTotals(profile, records, { mapping: POS_CODES });
        }
        const exact = (day: StoreDay) => totalsOf[day.storeId]!;
        await Promise.all([
          sendClose(service, partner, dailyClose(plusOne, 1, shifted(profile, exact(plusOne), 'net_sales_amount', 1))),
          sendClose(service, partner, dailyClose(minusOne, 1, shifted(profile, exact(minusOne), 'payment_total_amount', -1))),
          sendClose(service, partner, dailyClose(plusTwo, 1, shifted(profile, exact(plusTwo), 'tax_amount', 2))),
        ]);

        const one = await settled(service, partner, plusOne);
        expect(one.status).toBe('MATCHED');
        expect(one.differences).toEqual([]);
        expect(one.actual).toEqual(exact(plusOne));

        const minus = await settled(service, partner, minusOne);
        expect(minus.status).toBe('MATCHED');
        expect(minus.actual).toEqual(exact(minusOne));

        const two = await settled(service, partner, plusTwo);
        expect(two.status).toBe('MISMATCHED');
        expect(two.differences).toEqual(['tax_amount']);
        expect(two.actual).toEqual(exact(plusTwo));
      });
    }
  });
});
