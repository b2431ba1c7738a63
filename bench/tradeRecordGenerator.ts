/**
 * Realistic, deterministic POST /trade-records bodies for a USD store whose prices exclude tax:
 * combos with child lines and modifiers, single items with line discounts, 1–3 payments (cash,
 * card with tip, gift card), state and city tax lines. Amounts are computed in integer cents so
 * every record satisfies the amount identity, and the day's control totals are known exactly.
 */
import type { Payment, TaxLine, TradeItem, TradeRecord, TradeRecordBatch } from '../src/domain/model/payloads.js';

/** One menu entry; combos list the child products served with them. */
interface MenuEntry {
  readonly productId: string;
  readonly name: string;
  readonly type: TradeItem['product_type'];
  readonly priceCents: number;
  readonly children?: readonly { productId: string; name: string; type: TradeItem['product_type'] }[];
}

export const benchMenu: readonly MenuEntry[] = [
  {
    productId: 'P-COMBO-BURGER',
    name: 'Cheeseburger Combo',
    type: 'COMBO',
    priceCents: 1049,
    children: [
      { productId: 'P-CHEESEBURGER', name: 'Cheeseburger', type: 'SINGLE' },
      { productId: 'P-FRIES-M', name: 'Medium Fries', type: 'SIDE' },
      { productId: 'P-COLA-M', name: 'Medium Cola', type: 'DRINK' },
    ],
  },
  {
    productId: 'P-COMBO-CHICKEN',
    name: 'Crispy Chicken Combo',
    type: 'COMBO',
    priceCents: 1129,
    children: [
      { productId: 'P-CHICKEN-SANDWICH', name: 'Crispy Chicken Sandwich', type: 'SINGLE' },
      { productId: 'P-ONION-RINGS', name: 'Onion Rings', type: 'SIDE' },
      { productId: 'P-LEMONADE-M', name: 'Medium Lemonade', type: 'DRINK' },
    ],
  },
  {
    productId: 'P-COMBO-KIDS',
    name: 'Kids Meal',
    type: 'COMBO',
    priceCents: 649,
    children: [
      { productId: 'P-NUGGETS-6', name: '6 Chicken Nuggets', type: 'SINGLE' },
      { productId: 'P-APPLE-SLICES', name: 'Apple Slices', type: 'SIDE' },
      { productId: 'P-MILK', name: 'Low-fat Milk', type: 'DRINK' },
    ],
  },
  { productId: 'P-APPLE-PIE', name: 'Apple Pie', type: 'SINGLE', priceCents: 199 },
  { productId: 'P-SUNDAE', name: 'Hot Fudge Sundae', type: 'SINGLE', priceCents: 329 },
  { productId: 'P-COFFEE-L', name: 'Large Coffee', type: 'DRINK', priceCents: 249 },
  { productId: 'P-SALAD', name: 'Garden Salad', type: 'SINGLE', priceCents: 579 },
  { productId: 'P-FRIES-L', name: 'Large Fries', type: 'SIDE', priceCents: 389 },
  { productId: 'P-SHAKE', name: 'Chocolate Shake', type: 'DRINK', priceCents: 459 },
  { productId: 'P-WRAP', name: 'Grilled Chicken Wrap', type: 'SINGLE', priceCents: 699 },
];

const modifierChoices = [
  { group_id: 'MG-DRINK-SIZE', option_id: 'OPT-DRINK-L', option_name: 'Large drink', deltaCents: 50 },
  { group_id: 'MG-BURGER-OPTIONS', option_id: 'OPT-NO-ONION', option_name: 'No onion', deltaCents: 0 },
  { group_id: 'MG-BURGER-OPTIONS', option_id: 'OPT-EXTRA-CHEESE', option_name: 'Extra cheese', deltaCents: 60 },
  { group_id: 'MG-SAUCE', option_id: 'OPT-BBQ', option_name: 'BBQ sauce', deltaCents: 0 },
  { group_id: 'MG-SAUCE', option_id: 'OPT-RANCH', option_name: 'Ranch sauce', deltaCents: 25 },
] as const;

/** Day totals in cents, the same figures a partner's daily close would carry. */
export interface DayTotals {
  tradeRecordCount: number;
  itemRowCount: number;
  paymentRowCount: number;
  netSalesCents: number;
  taxCents: number;
  tipCents: number;
  paymentTotalCents: number;
}

export function emptyDayTotals(): DayTotals {
  return { tradeRecordCount: 0, itemRowCount: 0, paymentRowCount: 0, netSalesCents: 0, taxCents: 0, tipCents: 0, paymentTotalCents: 0 };
}

export interface GeneratedBatchOptions {
  readonly batchId: string;
  readonly storeId: string;
  readonly businessDate: string;
  readonly batchSeq: number;
  readonly recordCount: number;
  /** Prefix of every trade_record_id in the batch; ids are `<prefix>-<6 digits>`. */
  readonly idPrefix: string;
  /** Seeds the variation; the same seed gives the same records. */
  readonly seed: number;
  /** Running totals to add this batch's figures to. */
  readonly totals?: DayTotals;
}

export function generateTradeRecordBatch(options: GeneratedBatchOptions): TradeRecordBatch {
  const random = seededRandom(options.seed);
  const records: TradeRecord[] = [];
  for (let seq = 0; seq < options.recordCount; seq++) {
    const record = generateRecord(`${options.idPrefix}-${String(seq + 1).padStart(6, '0')}`, seq, options, random);
    records.push(record);
    if (options.totals) addToTotals(options.totals, record);
  }
  return {
    batch_id: options.batchId,
    store_id: options.storeId,
    business_date: options.businessDate,
    batch_seq: options.batchSeq,
    trade_records: records,
  };
}

function generateRecord(id: string, seq: number, options: GeneratedBatchOptions, random: () => number): TradeRecord {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const items: TradeItem[] = [];
  const comboCount = 1 + Math.floor(random() * 3);
  const singleCount = 2 + Math.floor(random() * 4);
  const combos = benchMenu.filter((m) => m.type === 'COMBO');
  const singles = benchMenu.filter((m) => m.type !== 'COMBO');

  for (let c = 0; c < comboCount; c++) {
    const combo = pick(combos);
    const modifiers = [pick(modifierChoices), ...(random() < 0.4 ? [pick(modifierChoices)] : [])];
    const unitCents = combo.priceCents + modifiers.reduce((sum, m) => sum + m.deltaCents, 0);
    const quantity = random() < 0.15 ? 2 : 1;
    const comboLine = items.length + 1;
    items.push(item(comboLine, null, combo.productId, combo.name, combo.type, quantity, unitCents, 0, modifiers));
    for (const child of combo.children ?? []) {
      const childModifiers = child.type === 'SINGLE' && random() < 0.5 ? [pick(modifierChoices.slice(1, 3))] : [];
      items.push(
        item(
          items.length + 1,
          comboLine,
          child.productId,
          child.name,
          child.type,
          quantity,
          0,
          0,
          childModifiers.map((m) => ({ ...m, deltaCents: 0 })),
        ),
      );
    }
  }
  for (let s = 0; s < singleCount; s++) {
    const single = pick(singles);
    const quantity = 1 + Math.floor(random() * 3);
    const discountCents = random() < 0.2 ? 50 : 0;
    const modifiers = random() < 0.3 ? [pick(modifierChoices.slice(3))] : [];
    const unitCents = single.priceCents + modifiers.reduce((sum, m) => sum + m.deltaCents, 0);
    items.push(item(items.length + 1, null, single.productId, single.name, single.type, quantity, unitCents, discountCents, modifiers));
  }
  const voided = random() < 0.1;
  if (voided) {
    const single = pick(singles);
    items.push({
      ...item(items.length + 1, null, single.productId, single.name, single.type, 1, single.priceCents, 0, []),
      is_voided: true,
      line_amount: '0.00',
      quantity: '0',
      discount_amount: '0.00',
    });
  }

  const subtotal = items.reduce((sum, line) => sum + toCents(line.line_amount), 0);
  const discount = random() < 0.25 ? 100 : 0;
  const taxable = subtotal - discount;
  const stateTax = Math.round(taxable * 0.04);
  const cityTax = Math.round(taxable * 0.04875);
  const tax = stateTax + cityTax;
  const tip = random() < 0.5 ? 100 * (1 + Math.floor(random() * 4)) : 0;
  const total = taxable + tax + tip;

  const time = clockFor(options.businessDate, seq);
  const payments = splitPayments(id, total, tip, Math.min(1 + Math.floor(random() * 3), 3), time);
  const taxLines: TaxLine[] = [
    { tax_code: 'US-NY-STATE', tax_rate: '0.04', taxable_amount: money(taxable), tax_amount: money(stateTax), is_inclusive: false },
    { tax_code: 'US-NY-NYC', tax_rate: '0.04875', taxable_amount: money(taxable), tax_amount: money(cityTax), is_inclusive: false },
  ];
  return {
    trade_record_id: id,
    version: 1,
    store_id: options.storeId,
    business_date: options.businessDate,
    source_transaction_type: '01',
    order_type: pick(['DINE_IN', 'TO_GO', 'DELIVERY', 'PICK_UP'] as const),
    order_source: pick(['POS', 'KIOSK', 'MOBILE_APP'] as const),
    status: 'COMPLETED',
    opened_at: time(0),
    closed_at: time(12),
    currency: 'USD',
    prices_include_tax: false,
    subtotal_amount: money(subtotal),
    discount_amount: money(discount),
    tax_amount: money(tax),
    service_charge_amount: '0.00',
    tip_amount: money(tip),
    rounding_amount: '0.00',
    total_amount: money(total),
    original_trade_record_id: null,
    fiscal_document_no: null,
    employee_id: `E-${String(10 + (seq % 37)).padStart(4, '0')}`,
    guest_count: 1 + (seq % 4),
    member_id: random() < 0.4 ? `M-${String(100000 + (seq % 9000))}` : null,
    last_modified_at: time(12),
    items,
    payments,
    tax_lines: taxLines,
  };
}

/** Cash first, gift card second, the card last carrying the tip. */
function splitPayments(id: string, totalCents: number, tipCents: number, count: number, time: (minutes: number) => string): Payment[] {
  if (count === 1 || totalCents < 300) {
    return [card(id, 1, totalCents, tipCents, time)];
  }
  const payments: Payment[] = [];
  let left = totalCents;
  const cash = Math.min(500, Math.floor((totalCents - tipCents) / 2));
  payments.push({ payment_id: `${id}-P1`, payment_type: 'SALE', payment_method: 'CASH', amount: money(cash), paid_at: time(10) });
  left -= cash;
  if (count === 3 && left - tipCents > 200) {
    const gift = 200;
    payments.push({
      payment_id: `${id}-P2`,
      payment_type: 'SALE',
      payment_method: 'GIFT_CARD',
      payment_method_detail: 'STORE_GIFT',
      amount: money(gift),
      paid_at: time(11),
    });
    left -= gift;
  }
  payments.push(card(id, payments.length + 1, left, tipCents, time));
  return payments;
}

function card(id: string, n: number, amountCents: number, tipCents: number, time: (minutes: number) => string): Payment {
  return {
    payment_id: `${id}-P${n}`,
    payment_type: 'SALE',
    payment_method: 'CREDIT_CARD',
    payment_method_detail: 'VISA',
    card_last4: '4242',
    amount: money(amountCents),
    ...(tipCents > 0 ? { tip_amount: money(tipCents) } : {}),
    paid_at: time(11),
    original_payment_id: null,
  };
}

function item(
  lineNo: number,
  parent: number | null,
  productId: string,
  name: string,
  type: TradeItem['product_type'],
  quantity: number,
  unitCents: number,
  discountCents: number,
  modifiers: readonly { group_id: string; option_id: string; option_name: string; deltaCents: number }[],
): TradeItem {
  return {
    line_no: lineNo,
    parent_line_no: parent,
    product_id: productId,
    product_name: name,
    product_type: type,
    quantity: String(quantity),
    unit_price: money(unitCents),
    discount_amount: money(discountCents),
    line_amount: money(quantity * unitCents - discountCents),
    tax_category: 'STANDARD',
    modifiers: modifiers.map((m) => ({
      group_id: m.group_id,
      option_id: m.option_id,
      option_name: m.option_name,
      quantity: '1',
      price_delta: money(m.deltaCents),
    })),
    is_voided: false,
  };
}

function addToTotals(totals: DayTotals, record: TradeRecord): void {
  const total = toCents(record.total_amount);
  const tax = toCents(record.tax_amount);
  const tip = toCents(record.tip_amount);
  totals.tradeRecordCount += 1;
  totals.itemRowCount += record.items.length;
  totals.paymentRowCount += record.payments.length;
  totals.netSalesCents += total - tax - tip;
  totals.taxCents += tax;
  totals.tipCents += tip;
  totals.paymentTotalCents += record.payments.reduce((sum, p) => sum + toCents(p.amount), 0);
}

export function money(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

function toCents(amount: string): number {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = '00'] = amount.replace('-', '').split('.');
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0').slice(0, 2));
  return negative ? -cents : cents;
}

/** Times of record `seq`: spread over the trading day in New York time. */
function clockFor(businessDate: string, seq: number): (minutes: number) => string {
  const base = 7 * 60 + (seq % 840);
  return (minutes) => {
    const total = base + minutes;
    const hh = String(Math.floor(total / 60) % 24).padStart(2, '0');
    const mm = String(total % 60).padStart(2, '0');
    return `${businessDate}T${hh}:${mm}:${String((seq * 7) % 60).padStart(2, '0')}-05:00`;
  };
}

/** A small deterministic linear congruential generator; plenty for varying test data. */
function seededRandom(seed: number): () => number {
  let state = (seed * 2654435761) >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state >>> 8) / 16777216;
  };
}
