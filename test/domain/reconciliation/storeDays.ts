/**
 * Two realistic store-days as partners would push them: a US burger-and-catering store (prices
 * exclude tax) and a Tokyo restaurant (prices include tax), each split into batches, with a record
 * superseded by a later version and a stale replay.
 *
 * Written out literally rather than through the record builder (test/fixtures/tradeRecordFixtures.ts):
 * the hand-checked totals at the end of each day were worked out on paper from these very strings,
 * and odd cases (rounding, a 10.25 % tax, points and gift cards) are spelled out where a reader sees them.
 */
import type { Payment, TradeItem, TradeRecord, TradeRecordBatch } from '../../../src/domain/model/payloads.js';

type ItemInput = Partial<TradeItem> & Pick<TradeItem, 'product_id' | 'product_name' | 'quantity' | 'unit_price' | 'line_amount'>;

function items(list: readonly ItemInput[]): TradeItem[] {
  return list.map((i, index) => ({
    line_no: index + 1,
    parent_line_no: null,
    product_type: 'SINGLE',
    discount_amount: i.unit_price.includes('.') ? '0.00' : '0',
    modifiers: [],
    is_voided: false,
    ...i,
  }));
}

function child(parent: number, product_id: string, product_name: string, product_type: TradeItem['product_type'], zero: string): ItemInput {
  return { parent_line_no: parent, product_id, product_name, product_type, quantity: '1', unit_price: zero, line_amount: zero };
}

let paymentSeq = 0;
function pay(payment_type: string, payment_method: string, amount: string, extra: Partial<Payment> = {}): Payment {
  paymentSeq += 1;
  return {
    payment_id: `P${String(paymentSeq).padStart(5, '0')}`,
    payment_type,
    payment_method,
    amount,
    paid_at: '2026-11-20T12:00:00-08:00',
    ...extra,
  };
}

interface RecordInput extends Partial<TradeRecord> {
  trade_record_id: string;
  source_transaction_type: string;
  subtotal_amount: string;
  tax_amount: string;
  total_amount: string;
  items: TradeItem[];
  payments: Payment[];
}

function usd(r: RecordInput): TradeRecord {
  return {
    version: 1,
    store_id: 'SEA-001',
    business_date: '2026-11-20',
    order_type: 'DINE_IN',
    order_source: 'POS',
    status: 'COMPLETED',
    opened_at: '2026-11-20T11:50:00-08:00',
    closed_at: '2026-11-20T12:00:00-08:00',
    currency: 'USD',
    prices_include_tax: false,
    discount_amount: '0.00',
    service_charge_amount: '0.00',
    tip_amount: '0.00',
    rounding_amount: '0.00',
    last_modified_at: '2026-11-20T12:00:00-08:00',
    ...r,
  };
}

function jpy(r: RecordInput): TradeRecord {
  return {
    version: 1,
    store_id: 'TKY-001',
    business_date: '2026-11-20',
    order_type: 'DINE_IN',
    order_source: 'POS',
    status: 'COMPLETED',
    opened_at: '2026-11-20T12:00:00+09:00',
    closed_at: '2026-11-20T12:40:00+09:00',
    currency: 'JPY',
    prices_include_tax: true,
    discount_amount: '0',
    service_charge_amount: '0',
    tip_amount: '0',
    rounding_amount: '0',
    last_modified_at: '2026-11-20T12:40:00+09:00',
    ...r,
  };
}

// ---------------------------------------------------------------- US store, tax excluded (10.25 %)

const u1 = usd({
  trade_record_id: 'U1',
  source_transaction_type: 'S',
  items: items([
    {
      product_id: 'MEAL-CLASSIC',
      product_name: 'Classic Burger Meal',
      product_type: 'COMBO',
      quantity: '1',
      unit_price: '10.49',
      line_amount: '10.49',
      modifiers: [{ group_id: 'MEAL-DRINK-SIZE', option_id: 'LARGE', option_name: 'Large drink', quantity: '1', price_delta: '0.50' }],
    },
    child(1, 'BURGER-CLASSIC', 'Classic Burger', 'SINGLE', '0.00'),
    child(1, 'FRIES-M', 'Medium Fries', 'SIDE', '0.00'),
    child(1, 'COLA-L', 'Large Cola', 'DRINK', '0.00'),
    {
      product_id: 'CHEESEBURGER',
      product_name: 'Cheeseburger',
      quantity: '1',
      unit_price: '6.19',
      line_amount: '6.19',
      modifiers: [{ group_id: 'EXTRAS', option_id: 'EXTRA-CHEESE', option_name: 'Extra cheese', quantity: '1', price_delta: '0.70' }],
    },
    {
      product_id: 'COOKIE',
      product_name: 'Chocolate Chip Cookie',
      quantity: '2',
      unit_price: '1.99',
      line_amount: '3.98',
      is_voided: true,
    },
  ]),
  subtotal_amount: '16.68',
  tax_amount: '1.71',
  tip_amount: '3.00',
  total_amount: '21.39',
  payments: [pay('SALE', 'CREDIT_CARD', '21.39', { tip_amount: '3.00', payment_method_detail: 'VISA', card_last4: '4242' })],
});

const u2v1 = usd({
  trade_record_id: 'U2',
  source_transaction_type: 'S',
  order_type: 'TO_GO',
  items: items([
    { product_id: 'CHICKEN-SANDWICH', product_name: 'Chicken Sandwich', quantity: '1', unit_price: '7.49', line_amount: '7.49' },
  ]),
  subtotal_amount: '7.49',
  tax_amount: '0.77',
  total_amount: '8.26',
  payments: [pay('SALE', 'CASH', '8.26')],
  last_modified_at: '2026-11-20T12:10:00-08:00',
});

/** The customer added an iced tea after paying: the POS resent the whole transaction as version 2. */
const u2v2 = usd({
  ...u2v1,
  version: 2,
  items: items([
    { product_id: 'CHICKEN-SANDWICH', product_name: 'Chicken Sandwich', quantity: '1', unit_price: '7.49', line_amount: '7.49' },
    { product_id: 'ICED-TEA', product_name: 'Iced Tea', product_type: 'DRINK', quantity: '1', unit_price: '2.49', line_amount: '2.49' },
  ]),
  subtotal_amount: '9.98',
  tax_amount: '1.02',
  total_amount: '11.00',
  payments: [u2v1.payments[0]!, pay('SALE', 'CASH', '2.74')],
  last_modified_at: '2026-11-20T12:15:00-08:00',
});

const u3void = usd({
  trade_record_id: 'U3',
  source_transaction_type: 'V',
  status: 'VOIDED',
  items: items([{ product_id: 'FISH-TACO', product_name: 'Fish Taco', quantity: '2', unit_price: '4.50', line_amount: '9.00' }]),
  subtotal_amount: '9.00',
  tax_amount: '0.92',
  total_amount: '9.92',
  payments: [],
});

const u4noSale = usd({
  trade_record_id: 'U4',
  source_transaction_type: 'NS',
  closed_at: '2026-11-20T12:20:00-08:00',
  items: items([{ product_id: 'NO-SALE', product_name: 'No sale', quantity: '0', unit_price: '0.00', line_amount: '0.00' }]),
  subtotal_amount: '0.00',
  tax_amount: '0.00',
  total_amount: '0.00',
  payments: [],
});

const u5refund = usd({
  trade_record_id: 'U5',
  source_transaction_type: 'R',
  original_trade_record_id: 'U1',
  items: items([{ product_id: 'CHEESEBURGER', product_name: 'Cheeseburger', quantity: '-1', unit_price: '6.19', line_amount: '-6.19' }]),
  subtotal_amount: '-6.19',
  tax_amount: '-0.63',
  total_amount: '-6.82',
  payments: [pay('REFUND', 'CREDIT_CARD', '6.82', { original_payment_id: u1.payments[0]!.payment_id })],
});

const u6return = usd({
  trade_record_id: 'U6',
  source_transaction_type: 'RT',
  order_type: 'TO_GO',
  items: items([{ product_id: 'MUG-LOGO', product_name: 'Logo Mug', quantity: '-1', unit_price: '12.00', line_amount: '-12.00' }]),
  subtotal_amount: '-12.00',
  tax_amount: '-1.23',
  total_amount: '-13.23',
  payments: [pay('REFUND', 'CASH', '13.23')],
});

const u7exchange = usd({
  trade_record_id: 'U7',
  source_transaction_type: 'EX',
  order_type: 'TO_GO',
  original_trade_record_id: 'U0-PREVIOUS-DAY',
  items: items([
    { product_id: 'TSHIRT-M', product_name: 'Logo T-shirt M', quantity: '-1', unit_price: '15.00', line_amount: '-15.00' },
    { product_id: 'HOODIE-M', product_name: 'Logo Hoodie M', quantity: '1', unit_price: '25.00', line_amount: '25.00' },
  ]),
  subtotal_amount: '10.00',
  tax_amount: '1.03',
  total_amount: '11.03',
  payments: [pay('SALE', 'CASH', '11.03')],
});

const u8deposit = usd({
  trade_record_id: 'U8',
  source_transaction_type: 'DP',
  order_type: 'PICK_UP',
  items: items([
    {
      product_id: 'CATERING-DEPOSIT',
      product_name: 'Catering deposit',
      quantity: '1',
      unit_price: '50.00',
      line_amount: '50.00',
      tax_category: 'EXEMPT',
    },
  ]),
  subtotal_amount: '50.00',
  tax_amount: '0.00',
  total_amount: '50.00',
  payments: [pay('DEPOSIT', 'CASH', '50.00')],
});

/** Sent twice as version 1; the second copy is later (20:06Z) although its text sorts earlier. */
const u9first = usd({
  trade_record_id: 'U9',
  source_transaction_type: 'S',
  items: items([{ product_id: 'SALAD', product_name: 'Cobb Salad', quantity: '1', unit_price: '8.50', line_amount: '8.50' }]),
  subtotal_amount: '8.50',
  tax_amount: '0.87',
  total_amount: '9.37',
  payments: [pay('SALE', 'CREDIT_CARD', '9.37')],
  last_modified_at: '2026-11-20T20:05:00Z',
});
const u9second = usd({
  ...u9first,
  items: items([
    { product_id: 'SALAD', product_name: 'Cobb Salad', quantity: '1', unit_price: '8.50', line_amount: '8.50' },
    { product_id: 'SOUP', product_name: 'Tomato Soup', quantity: '1', unit_price: '4.00', line_amount: '4.00' },
  ]),
  subtotal_amount: '12.50',
  tax_amount: '1.28',
  total_amount: '13.78',
  payments: [pay('SALE', 'CREDIT_CARD', '13.78')],
  last_modified_at: '2026-11-20T12:06:00-08:00',
});

/** Catering pick-up: 10 % service charge; the deposit taken in U8 is applied, the rest paid by card. */
const u10pickup = usd({
  trade_record_id: 'U10',
  source_transaction_type: 'S',
  order_type: 'PICK_UP',
  order_source: 'WEB',
  items: items([{ product_id: 'TRAY-SLIDERS', product_name: 'Slider Tray', quantity: '4', unit_price: '45.00', line_amount: '180.00' }]),
  subtotal_amount: '180.00',
  service_charge_amount: '18.00',
  tax_amount: '18.45',
  total_amount: '216.45',
  payments: [pay('DEPOSIT_APPLIED', 'CASH', '50.00'), pay('SALE', 'CREDIT_CARD', '166.45')],
});

/** Cash sale rounded to the nickel. */
const u11rounded = usd({
  trade_record_id: 'U11',
  source_transaction_type: 'S',
  order_type: 'TO_GO',
  items: items([
    { product_id: 'COFFEE-L', product_name: 'Large Coffee', product_type: 'DRINK', quantity: '1', unit_price: '3.29', line_amount: '3.29' },
  ]),
  subtotal_amount: '3.29',
  tax_amount: '0.34',
  rounding_amount: '0.02',
  total_amount: '3.65',
  payments: [pay('SALE', 'CASH', '3.65')],
});

/** Delivery order: line discount, 10 % promo on the order, courier tip. */
const u12delivery = usd({
  trade_record_id: 'U12',
  source_transaction_type: 'S',
  order_type: 'DELIVERY',
  order_source: 'DELIVERY_PLATFORM',
  order_source_detail: 'DoorDash',
  items: items([
    { product_id: 'BURRITO', product_name: 'Burrito', quantity: '2', unit_price: '11.25', discount_amount: '1.00', line_amount: '21.50' },
  ]),
  subtotal_amount: '21.50',
  discount_amount: '2.15',
  tax_amount: '1.98',
  tip_amount: '4.00',
  total_amount: '25.33',
  payments: [pay('SALE', 'CREDIT_CARD', '25.33', { tip_amount: '4.00' })],
});

/** Bill split on two cards; the terminal over-split by a cent, corrected by an ADJUSTMENT. */
const u13split = usd({
  trade_record_id: 'U13',
  source_transaction_type: 'S',
  items: items([
    { product_id: 'STEAK', product_name: 'Ribeye Steak', quantity: '1', unit_price: '28.00', line_amount: '28.00' },
    {
      product_id: 'WINE-GLASS',
      product_name: 'Glass of Red',
      product_type: 'DRINK',
      quantity: '1',
      unit_price: '12.00',
      line_amount: '12.00',
    },
  ]),
  subtotal_amount: '40.00',
  tax_amount: '4.10',
  tip_amount: '6.00',
  total_amount: '50.10',
  payments: [
    pay('SALE', 'CREDIT_CARD', '25.06', { tip_amount: '3.00' }),
    pay('SALE', 'CREDIT_CARD', '25.05', { tip_amount: '3.00' }),
    pay('ADJUSTMENT', 'CREDIT_CARD', '-0.01'),
  ],
});

/** Gift card and loyalty points are instruments; the payment_type is SALE. */
const u14giftPoints = usd({
  trade_record_id: 'U14',
  source_transaction_type: 'S',
  order_type: 'TO_GO',
  order_source: 'KIOSK',
  items: items([{ product_id: 'WRAP', product_name: 'Chicken Wrap', quantity: '1', unit_price: '8.00', line_amount: '8.00' }]),
  subtotal_amount: '8.00',
  tax_amount: '0.82',
  total_amount: '8.82',
  payments: [pay('SALE', 'GIFT_CARD', '5.00'), pay('SALE', 'LOYALTY_POINTS', '3.82', { payment_method_detail: 'POINTS:382' })],
});

export const usdDay = {
  currency: 'USD',
  digits: 2,
  mapping: { S: 'SALE', R: 'REFUND', V: 'VOID', RT: 'RETURN', EX: 'EXCHANGE', NS: 'NO_SALE', DP: 'DEPOSIT' } as Record<string, string>,
  batches: [
    {
      batch_id: '6f1c1e0e-3f57-4d7c-9a43-0d9a1b1c0001',
      store_id: 'SEA-001',
      business_date: '2026-11-20',
      batch_seq: 1,
      trade_records: [u1, u2v1, u3void, u4noSale, u9first],
    },
    {
      batch_id: '6f1c1e0e-3f57-4d7c-9a43-0d9a1b1c0002',
      store_id: 'SEA-001',
      business_date: '2026-11-20',
      batch_seq: 2,
      trade_records: [u5refund, u6return, u7exchange, u8deposit, u9second, u2v2],
    },
    {
      batch_id: '6f1c1e0e-3f57-4d7c-9a43-0d9a1b1c0003',
      store_id: 'SEA-001',
      business_date: '2026-11-20',
      batch_seq: 3,
      trade_records: [u10pickup, u11rounded, u12delivery, u13split, u14giftPoints, u2v1],
    },
  ] satisfies TradeRecordBatch[],
  /** The latest version of each transaction, chosen by hand. */
  finalRecords: [
    u1,
    u2v2,
    u3void,
    u4noSale,
    u5refund,
    u6return,
    u7exchange,
    u8deposit,
    u9second,
    u10pickup,
    u11rounded,
    u12delivery,
    u13split,
    u14giftPoints,
  ],
  /** Worked out on paper from the records above. */
  handChecked: {
    trade_record_count: 14,
    item_row_count: 23,
    payment_row_count: 17,
    net_sales_amount: '299.63',
    tax_amount: '28.87',
    tip_amount: '13.00',
    payment_total_amount: '341.50',
  },
};

// ---------------------------------------------------------------- Tokyo store, tax included (10 % / 8 %)

const j1 = jpy({
  trade_record_id: 'J1',
  source_transaction_type: '1',
  items: items([
    {
      product_id: 'SET-CHEESE',
      product_name: 'チーズバーガーセット',
      product_type: 'COMBO',
      quantity: '1',
      unit_price: '940',
      line_amount: '940',
      modifiers: [{ group_id: 'SET-DRINK', option_id: 'MELON-SODA', option_name: 'メロンソーダ', quantity: '1', price_delta: '50' }],
    },
    child(1, 'CHEESEBURGER', 'チーズバーガー', 'SINGLE', '0'),
    child(1, 'POTATO-M', 'ポテトM', 'SIDE', '0'),
    child(1, 'MELON-SODA', 'メロンソーダ', 'DRINK', '0'),
    {
      product_id: 'RAMEN-SHOYU',
      product_name: '醤油ラーメン',
      quantity: '1',
      unit_price: '980',
      line_amount: '980',
      modifiers: [{ group_id: 'NOODLE-SIZE', option_id: 'OMORI', option_name: '大盛り', quantity: '1', price_delta: '100' }],
    },
  ]),
  subtotal_amount: '1920',
  tax_amount: '174',
  total_amount: '1920',
  payments: [pay('SALE', 'CASH', '1920')],
});

const j2 = jpy({
  trade_record_id: 'J2',
  source_transaction_type: '1',
  order_type: 'TO_GO',
  items: items([
    {
      product_id: 'BENTO-KARAAGE',
      product_name: '唐揚げ弁当',
      quantity: '2',
      unit_price: '640',
      line_amount: '1280',
      tax_category: 'REDUCED',
    },
  ]),
  subtotal_amount: '1280',
  tax_amount: '94',
  total_amount: '1280',
  payments: [pay('SALE', 'CREDIT_CARD', '1000'), pay('SALE', 'LOYALTY_POINTS', '280', { payment_method_detail: 'POINTS:280' })],
});

const j3refund = jpy({
  trade_record_id: 'J3',
  source_transaction_type: '2',
  order_type: 'TO_GO',
  original_trade_record_id: 'J2',
  items: items([
    {
      product_id: 'BENTO-KARAAGE',
      product_name: '唐揚げ弁当',
      quantity: '-1',
      unit_price: '640',
      line_amount: '-640',
      tax_category: 'REDUCED',
    },
  ]),
  subtotal_amount: '-640',
  tax_amount: '-47',
  total_amount: '-640',
  payments: [pay('REFUND', 'CREDIT_CARD', '640')],
});

const j4void = jpy({
  trade_record_id: 'J4',
  source_transaction_type: '3',
  status: 'VOIDED',
  items: items([{ product_id: 'UDON', product_name: 'かけうどん', quantity: '1', unit_price: '500', line_amount: '500' }]),
  subtotal_amount: '500',
  tax_amount: '45',
  total_amount: '500',
  payments: [],
});

const j5service = jpy({
  trade_record_id: 'J5',
  source_transaction_type: '1',
  guest_count: 2,
  items: items([{ product_id: 'COURSE-A', product_name: 'おまかせコース', quantity: '2', unit_price: '2500', line_amount: '5000' }]),
  subtotal_amount: '5000',
  service_charge_amount: '500',
  tax_amount: '500',
  total_amount: '5500',
  payments: [pay('SALE', 'CREDIT_CARD', '5500')],
});

const j6v1 = jpy({
  trade_record_id: 'J6',
  source_transaction_type: '1',
  items: items([{ product_id: 'GYOZA', product_name: '餃子', quantity: '2', unit_price: '500', line_amount: '1000' }]),
  subtotal_amount: '1000',
  tax_amount: '90',
  total_amount: '1000',
  payments: [pay('SALE', 'CASH', '1000')],
});
const j6v2 = jpy({
  ...j6v1,
  version: 2,
  items: items([
    { product_id: 'GYOZA', product_name: '餃子', quantity: '2', unit_price: '500', line_amount: '1000' },
    { product_id: 'BEER', product_name: '生ビール', product_type: 'DRINK', quantity: '1', unit_price: '600', line_amount: '600' },
  ]),
  subtotal_amount: '1600',
  tax_amount: '145',
  total_amount: '1600',
  payments: [pay('SALE', 'CASH', '1600')],
  last_modified_at: '2026-11-20T13:05:00+09:00',
});

/** Exchange at equal price: no money moves, so no payments. */
const j7exchange = jpy({
  trade_record_id: 'J7',
  source_transaction_type: '5',
  order_type: 'TO_GO',
  original_trade_record_id: 'J0-EARLIER',
  items: items([
    { product_id: 'TUMBLER-BLUE', product_name: 'タンブラー青', quantity: '-1', unit_price: '2000', line_amount: '-2000' },
    { product_id: 'TUMBLER-RED', product_name: 'タンブラー赤', quantity: '1', unit_price: '2000', line_amount: '2000' },
  ]),
  subtotal_amount: '0',
  tax_amount: '0',
  total_amount: '0',
  payments: [],
});

const j8discount = jpy({
  trade_record_id: 'J8',
  source_transaction_type: '1',
  items: items([
    { product_id: 'TEISHOKU', product_name: '生姜焼き定食', quantity: '1', unit_price: '800', line_amount: '800' },
    { product_id: 'KARAAGE', product_name: '唐揚げ', quantity: '1', unit_price: '700', line_amount: '700' },
  ]),
  subtotal_amount: '1500',
  discount_amount: '150',
  tax_amount: '122',
  total_amount: '1350',
  payments: [pay('SALE', 'CASH', '1350')],
});

export const jpyDay = {
  currency: 'JPY',
  digits: 0,
  mapping: { '1': 'SALE', '2': 'REFUND', '3': 'VOID', '5': 'EXCHANGE' } as Record<string, string>,
  batches: [
    {
      batch_id: '0b5f2c7e-9a1d-4c3e-8f60-5e2d7a9b0001',
      store_id: 'TKY-001',
      business_date: '2026-11-20',
      batch_seq: 1,
      trade_records: [j1, j2, j3refund, j6v1],
    },
    {
      batch_id: '0b5f2c7e-9a1d-4c3e-8f60-5e2d7a9b0002',
      store_id: 'TKY-001',
      business_date: '2026-11-20',
      batch_seq: 2,
      trade_records: [j6v2, j4void, j5service, j7exchange, j8discount],
    },
  ] satisfies TradeRecordBatch[],
  finalRecords: [j1, j2, j3refund, j4void, j5service, j6v2, j7exchange, j8discount],
  handChecked: {
    trade_record_count: 8,
    item_row_count: 15,
    payment_row_count: 7,
    net_sales_amount: '10022',
    tax_amount: '988',
    tip_amount: '0',
    payment_total_amount: '11010',
  },
};
