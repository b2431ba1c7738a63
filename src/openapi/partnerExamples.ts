/**
 * One worked example per operation of the partner API: a New York store's day with a single
 * burger-combo sale. The bodies are valid against their schemas and the semantic rules (the
 * tests check both), and the daily close matches what HQ recomputes from the transaction.
 */
const storeId = 'NYC-0001';
const businessDate = '2026-03-01';

const tradeRecordsBatchId = '6f1c2a3b-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const dailyCloseBatchId = '7a2b3c4d-5e6f-4a70-9b8c-0d1e2f3a4b5c';
const storesBatchId = '8b3c4d5e-6f70-4b81-8c9d-1e2f3a4b5c6d';
const productsBatchId = '9c4d5e6f-7081-4c92-9dae-2f3a4b5c6d7e';
const mappingsBatchId = 'ad5e6f70-8192-4da3-8ebf-3a4b5c6d7e8f';

const tradeRecordsBody = {
  batch_id: tradeRecordsBatchId,
  store_id: storeId,
  business_date: businessDate,
  batch_seq: 1,
  trade_records: [
    {
      trade_record_id: 'T-NYC-000001',
      version: 1,
      store_id: storeId,
      business_date: businessDate,
      source_transaction_type: '01',
      order_type: 'DINE_IN',
      order_source: 'POS',
      status: 'COMPLETED',
      opened_at: '2026-03-01T12:02:11-05:00',
      closed_at: '2026-03-01T12:04:40-05:00',
      currency: 'USD',
      prices_include_tax: false,
      subtotal_amount: '9.99',
      discount_amount: '0.00',
      tax_amount: '0.89',
      service_charge_amount: '0.00',
      tip_amount: '1.00',
      rounding_amount: '0.00',
      total_amount: '11.88',
      employee_id: 'E-117',
      guest_count: 1,
      last_modified_at: '2026-03-01T12:04:40-05:00',
      items: [
        {
          line_no: 1,
          parent_line_no: null,
          product_id: 'P-COMBO-BURGER',
          product_name: 'Cheeseburger Combo',
          product_type: 'COMBO',
          quantity: '1',
          unit_price: '9.99',
          discount_amount: '0.00',
          line_amount: '9.99',
          tax_category: 'STANDARD',
          modifiers: [],
          is_voided: false,
        },
        {
          line_no: 2,
          parent_line_no: 1,
          product_id: 'P-CHEESEBURGER',
          product_name: 'Cheeseburger',
          product_type: 'SINGLE',
          quantity: '1',
          unit_price: '0.00',
          discount_amount: '0.00',
          line_amount: '0.00',
          modifiers: [
            { group_id: 'MG-BURGER-OPTIONS', option_id: 'OPT-NO-ONION', option_name: 'No onion', quantity: '1', price_delta: '0.00' },
          ],
          is_voided: false,
        },
        {
          line_no: 3,
          parent_line_no: 1,
          product_id: 'P-FRIES-M',
          product_name: 'Medium Fries',
          product_type: 'SIDE',
          quantity: '1',
          unit_price: '0.00',
          discount_amount: '0.00',
          line_amount: '0.00',
          modifiers: [],
          is_voided: false,
        },
        {
          line_no: 4,
          parent_line_no: 1,
          product_id: 'P-COLA-M',
          product_name: 'Medium Cola',
          product_type: 'DRINK',
          quantity: '1',
          unit_price: '0.00',
          discount_amount: '0.00',
          line_amount: '0.00',
          modifiers: [],
          is_voided: false,
        },
      ],
      payments: [
        {
          payment_id: 'T-NYC-000001-P1',
          payment_type: 'SALE',
          payment_method: 'CREDIT_CARD',
          payment_method_detail: 'VISA',
          card_last4: '4242',
          amount: '11.88',
          tip_amount: '1.00',
          paid_at: '2026-03-01T12:04:35-05:00',
        },
      ],
      tax_lines: [{ tax_code: 'US-NY-SALES', tax_rate: '0.08875', taxable_amount: '9.99', tax_amount: '0.89', is_inclusive: false }],
    },
  ],
};

const dailyCloseBody = {
  batch_id: dailyCloseBatchId,
  store_id: storeId,
  business_date: businessDate,
  batch_count: 1,
  trade_record_count: 1,
  item_row_count: 4,
  payment_row_count: 1,
  net_sales_amount: '9.99',
  tax_amount: '0.89',
  tip_amount: '1.00',
  payment_total_amount: '11.88',
  currency: 'USD',
  closed_at: '2026-03-02T03:55:00-05:00',
};

const controlTotals = {
  trade_record_count: 1,
  item_row_count: 4,
  payment_row_count: 1,
  net_sales_amount: '9.99',
  tax_amount: '0.89',
  tip_amount: '1.00',
  payment_total_amount: '11.88',
};

const storesBody = {
  batch_id: storesBatchId,
  stores: [
    {
      store_id: storeId,
      store_name: 'Broadway & 42nd',
      country_code: 'US',
      currency: 'USD',
      time_zone: 'America/New_York',
      locale: 'en-US',
      workday_start: '04:00',
      prices_include_tax: false,
      status: 'ACTIVE',
      last_modified_at: '2026-02-20T09:00:00-05:00',
    },
  ],
};

const productsBody = {
  batch_id: productsBatchId,
  // The combo, and every product its components and its drink options name (contract §2.4), so
  // the transaction's four lines all name a known product.
  products: [
    {
      product_id: 'P-COMBO-BURGER',
      name: { 'en-US': 'Cheeseburger Combo' },
      category_id: 'CAT-COMBOS',
      category_name: { 'en-US': 'Combos' },
      unit_price: '9.99',
      currency: 'USD',
      tax_category: 'STANDARD',
      status: 'ACTIVE',
      version: 1,
      last_modified_at: '2026-02-25T08:00:00-05:00',
      product_type: 'COMBO',
      modifier_group_ids: ['MG-COMBO-DRINK'],
      combo_components: [
        { product_id: 'P-CHEESEBURGER', quantity: '1', is_substitutable: false },
        { product_id: 'P-FRIES-M', quantity: '1', is_substitutable: false },
        { product_id: 'P-COLA-M', quantity: '1', is_substitutable: true, substitute_group_id: 'MG-COMBO-DRINK' },
      ],
    },
    {
      product_id: 'P-CHEESEBURGER',
      name: { 'en-US': 'Cheeseburger' },
      unit_price: '5.49',
      currency: 'USD',
      tax_category: 'STANDARD',
      status: 'ACTIVE',
      version: 1,
      last_modified_at: '2026-02-25T08:00:00-05:00',
      product_type: 'SINGLE',
      modifier_group_ids: ['MG-BURGER-OPTIONS'],
    },
    {
      product_id: 'P-FRIES-M',
      name: { 'en-US': 'Medium Fries' },
      unit_price: '2.79',
      currency: 'USD',
      tax_category: 'STANDARD',
      status: 'ACTIVE',
      version: 1,
      last_modified_at: '2026-02-25T08:00:00-05:00',
      product_type: 'SIDE',
    },
    {
      product_id: 'P-COLA-M',
      name: { 'en-US': 'Medium Cola' },
      unit_price: '1.99',
      currency: 'USD',
      tax_category: 'STANDARD',
      status: 'ACTIVE',
      version: 1,
      last_modified_at: '2026-02-25T08:00:00-05:00',
      product_type: 'DRINK',
    },
    {
      product_id: 'P-COLA-L',
      name: { 'en-US': 'Large Cola' },
      unit_price: '2.49',
      currency: 'USD',
      tax_category: 'STANDARD',
      status: 'ACTIVE',
      version: 1,
      last_modified_at: '2026-02-25T08:00:00-05:00',
      product_type: 'DRINK',
    },
  ],
  modifier_groups: [
    {
      group_id: 'MG-COMBO-DRINK',
      name: { 'en-US': 'Combo drink' },
      min_select: 1,
      max_select: 1,
      options: [
        { option_id: 'P-COLA-M', name: { 'en-US': 'Medium Cola' }, price_delta: '0.00', is_default: true },
        { option_id: 'P-COLA-L', name: { 'en-US': 'Large Cola' }, price_delta: '0.50' },
      ],
    },
    {
      group_id: 'MG-BURGER-OPTIONS',
      name: { 'en-US': 'Burger options' },
      min_select: 0,
      max_select: 3,
      options: [
        { option_id: 'OPT-NO-ONION', name: { 'en-US': 'No onion' }, price_delta: '0.00' },
        { option_id: 'OPT-EXTRA-CHEESE', name: { 'en-US': 'Extra cheese' }, price_delta: '0.75' },
      ],
    },
  ],
};

const mappingsBody = {
  batch_id: mappingsBatchId,
  mappings: [
    { source_code: '01', source_name: 'Sale', standard_code: 'SALE' },
    { source_code: '02', source_name: 'Refund', standard_code: 'REFUND' },
    { source_code: '09', standard_code: 'VOID' },
  ],
};

const acknowledgement = (batchId: string, recordCount: number, status: 'ACCEPTED' | 'ALREADY_RECEIVED' = 'ACCEPTED') => ({
  batch_id: batchId,
  status,
  record_count: recordCount,
  warnings: [],
});

/** Example request body, responses by status, and path parameters of each documented operation. */
const webhook = {
  url: 'https://pos-events.example.com/hq',
  event_types: ['reconciliation.completed', 'reconciliation.changed', 'batch.failed'],
  created_at: '2026-02-20T14:00:00.000Z',
  updated_at: '2026-02-20T14:00:00.000Z',
  previous_secret_expires_at: null,
  disabled_at: null,
};
/** Shaped like a real secret, and obviously not one. */
const exampleSecret = 'whsec_ZXhhbXBsZS1zZWNyZXQtbm90LWEtcmVhbC1vbmUtISE=';

export interface OperationExamples {
  readonly request?: unknown;
  readonly parameters?: Readonly<Record<string, string>>;
  readonly responses: Readonly<Record<number, unknown>>;
}

export const partnerExamples = {
  pushTradeRecords: {
    request: tradeRecordsBody,
    // What the service answers once the mapping, store and product examples are uploaded.
    responses: { 202: acknowledgement(tradeRecordsBatchId, 1), 200: acknowledgement(tradeRecordsBatchId, 1, 'ALREADY_RECEIVED') },
  },
  pushDailyClose: {
    request: dailyCloseBody,
    responses: { 202: acknowledgement(dailyCloseBatchId, 1), 200: acknowledgement(dailyCloseBatchId, 1, 'ALREADY_RECEIVED') },
  },
  getReconciliation: {
    parameters: { store_id: storeId, business_date: businessDate },
    responses: {
      200: {
        store_id: storeId,
        business_date: businessDate,
        status: 'MATCHED',
        checked_at: '2026-03-02T09:11:02.418Z',
        expected: controlTotals,
        actual: controlTotals,
        differences: [],
        diagnosis: {
          missing_batch_seqs: [],
          missing_batch_count: 0,
          unexpected_batch_seqs: [],
          batches_after_close: 0,
          unmapped_transaction_types: [],
          unknown_payment_types: [],
          hints: [],
        },
      },
    },
  },
  putStores: {
    request: storesBody,
    responses: { 202: acknowledgement(storesBatchId, 1), 200: acknowledgement(storesBatchId, 1, 'ALREADY_RECEIVED') },
  },
  putProducts: {
    request: productsBody,
    responses: { 202: acknowledgement(productsBatchId, 5), 200: acknowledgement(productsBatchId, 5, 'ALREADY_RECEIVED') },
  },
  putMapping: {
    request: mappingsBody,
    responses: { 202: acknowledgement(mappingsBatchId, 3), 200: acknowledgement(mappingsBatchId, 3, 'ALREADY_RECEIVED') },
  },
  getMapping: {
    responses: {
      200: { partner_id: 'ACME', batch_id: mappingsBatchId, updated_at: '2026-02-20T14:00:00.000Z', mappings: mappingsBody.mappings },
    },
  },
  getReferenceTransactionTypes: {
    responses: {
      200: {
        version: '2026-11-01',
        data: [
          {
            code: 'SALE',
            name: { 'en-US': 'Sale', 'ja-JP': '売上' },
            is_revenue: true,
            amount_sign: 1,
            description: 'Goods or services sold to a customer. Amounts are positive.',
          },
        ],
      },
    },
  },
  putWebhook: {
    request: { url: webhook.url, event_types: webhook.event_types },
    responses: { 201: { ...webhook, secret: exampleSecret }, 200: { ...webhook, updated_at: '2026-02-21T09:30:00.000Z' } },
  },
  getWebhook: { responses: { 200: webhook } },
  deleteWebhook: { responses: {} },
  rotateWebhookSecret: {
    responses: {
      200: {
        ...webhook,
        updated_at: '2026-02-21T09:30:00.000Z',
        previous_secret_expires_at: '2026-02-22T09:30:00.000Z',
        secret: exampleSecret,
      },
    },
  },
  health: { responses: { 200: { status: 'ok' }, 503: { status: 'unavailable' } } },
} as const satisfies Record<string, OperationExamples>;
