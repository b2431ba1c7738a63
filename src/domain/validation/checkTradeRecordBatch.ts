import Big from 'big.js';
import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import type { Payment, TradeRecord, TradeRecordBatch } from '../model/payloads.js';
import { checkAmountPlaces } from './checkAmountPlaces.js';
import { checkCurrency } from './checkCurrency.js';
import { findSensitiveData } from './findSensitiveData.js';

const recordAmountFields = [
  'subtotal_amount',
  'discount_amount',
  'tax_amount',
  'service_charge_amount',
  'tip_amount',
  'rounding_amount',
  'total_amount',
] as const;
const itemAmountFields = ['unit_price', 'discount_amount', 'line_amount'] as const;
const modifierAmountFields = ['price_delta'] as const;
const paymentAmountFields = ['amount', 'tip_amount'] as const;
const taxLineAmountFields = ['taxable_amount', 'tax_amount'] as const;

/**
 * The rules of a POST /trade-records body that its schema cannot express (contract §2.7-§2.10,
 * §4.2). The body must already conform to the schema. `storeCurrency` is the currency of the
 * store master, undefined when the store was never uploaded.
 *
 * Payment amounts: zero is accepted (a fully discounted or free order still records its
 * instrument); negative only with payment_type ADJUSTMENT. tip_amount lies between zero and the
 * amount, on the amount's side of zero.
 *
 * The amount identity is not checked here: a record failing it is accepted with a warning, which
 * the push computes when it applies the batch (`checkAmountIdentity`).
 */
export function checkTradeRecordBatch(batch: TradeRecordBatch, storeCurrency: string | undefined): ProblemDetail[] {
  const problems: ProblemDetail[] = [];
  const firstRecordIndex = new Map<string, number>();
  const firstPaymentPath = new Map<string, string>();

  batch.trade_records.forEach((record, index) => {
    const path = `/trade_records/${index}`;
    if (record.store_id !== batch.store_id) {
      problems.push({ path: `${path}/store_id`, message: "must equal the batch's store_id" });
    }
    if (record.business_date !== batch.business_date) {
      problems.push({ path: `${path}/business_date`, message: "must equal the batch's business_date" });
    }
    const first = firstRecordIndex.get(record.trade_record_id);
    if (first === undefined) firstRecordIndex.set(record.trade_record_id, index);
    else problems.push({ path: `${path}/trade_record_id`, message: `duplicates the trade_record_id of record ${first} in this batch` });

    const digits = checkCurrency(record.currency, storeCurrency, `${path}/currency`, problems);
    if (digits !== undefined) checkRecordAmounts(record, digits, path, problems);
    checkLines(record, path, problems);
    record.payments.forEach((payment, p) => {
      const paymentPath = `${path}/payments/${p}`;
      const firstPath = firstPaymentPath.get(payment.payment_id);
      if (firstPath === undefined) firstPaymentPath.set(payment.payment_id, paymentPath);
      else problems.push({ path: `${paymentPath}/payment_id`, message: `duplicates the payment_id at ${firstPath} in this batch` });
      checkPaymentAmounts(payment, paymentPath, problems);
    });
  });

  for (const problem of findSensitiveData(batch)) problems.push(problem);
  return problems;
}

function checkRecordAmounts(record: TradeRecord, digits: number, path: string, problems: ProblemDetail[]): void {
  checkAmountPlaces(record, recordAmountFields, digits, path, problems);
  record.items.forEach((item, i) => {
    const itemPath = `${path}/items/${i}`;
    checkAmountPlaces(item, itemAmountFields, digits, itemPath, problems);
    item.modifiers.forEach((modifier, m) => {
      checkAmountPlaces(modifier, modifierAmountFields, digits, `${itemPath}/modifiers/${m}`, problems);
    });
  });
  record.payments.forEach((payment, p) => {
    checkAmountPlaces(payment, paymentAmountFields, digits, `${path}/payments/${p}`, problems);
  });
  record.tax_lines?.forEach((taxLine, t) => {
    checkAmountPlaces(taxLine, taxLineAmountFields, digits, `${path}/tax_lines/${t}`, problems);
  });
}

/** line_no unique within the record; parent_line_no names another line of the same record. */
function checkLines(record: TradeRecord, path: string, problems: ProblemDetail[]): void {
  const firstLineIndex = new Map<number, number>();
  record.items.forEach((item, i) => {
    const first = firstLineIndex.get(item.line_no);
    if (first === undefined) firstLineIndex.set(item.line_no, i);
    else problems.push({ path: `${path}/items/${i}/line_no`, message: `duplicates the line_no of item ${first} of this record` });
  });
  record.items.forEach((item, i) => {
    const parent = item.parent_line_no;
    if (parent === undefined || parent === null) return;
    if (parent === item.line_no) {
      problems.push({ path: `${path}/items/${i}/parent_line_no`, message: 'must name another line, not the line itself' });
    } else if (!firstLineIndex.has(parent)) {
      problems.push({ path: `${path}/items/${i}/parent_line_no`, message: 'must equal the line_no of a line of this record' });
    }
  });
}

function checkPaymentAmounts(payment: Payment, path: string, problems: ProblemDetail[]): void {
  const amount = new Big(payment.amount);
  if (amount.lt(0) && payment.payment_type !== 'ADJUSTMENT') {
    problems.push({
      path: `${path}/amount`,
      message: 'must not be negative; the direction comes from payment_type (only ADJUSTMENT may be negative)',
    });
  }
  if (payment.tip_amount === undefined) return;
  const tip = new Big(payment.tip_amount);
  const withinAmount = amount.gte(0) ? tip.gte(0) && tip.lte(amount) : tip.lte(0) && tip.gte(amount);
  if (!withinAmount) {
    problems.push({ path: `${path}/tip_amount`, message: 'must lie between zero and the payment amount (the amount includes the tip)' });
  }
}
