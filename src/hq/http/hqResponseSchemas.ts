import { componentRef } from '../../openapi/SchemaRef.js';

/**
 * JSON Schemas (2020-12) of the HQ API's response bodies, for its OpenAPI document. Each mirrors the
 * body type its service declares (StoreDayGrid, StoreDayDetail, BatchList, PartnerDirectory,
 * SalesQuery, UnmappedQuery and the endpoints' own bodies); objects are closed, so a field added to
 * a body without its schema fails the test that checks real answers against the document. Shapes
 * the partner API already defines (control totals) are referred to by their component.
 */

const text = { type: 'string' } as const;
const textOrNull = { type: ['string', 'null'] } as const;
const date = { type: 'string', format: 'date', description: 'A business date YYYY-MM-DD.' } as const;
const timestamp = { type: 'string', format: 'date-time', description: 'UTC ISO 8601.' } as const;
const timestampOrNull = { type: ['string', 'null'], format: 'date-time', description: 'UTC ISO 8601, or null.' } as const;
const count = { type: 'integer', minimum: 0 } as const;
const amount = {
  type: 'string',
  pattern: '^-?[0-9]+(\\.[0-9]+)?$',
  description: 'A decimal string with the currency’s minor-unit digits.',
};
const dayStatus = { enum: ['NOT_RECEIVED', 'RECEIVED', 'MATCHED', 'MISMATCHED'] } as const;
const controlTotals = { $ref: componentRef({ file: 'responses.schema.json', def: 'controlTotals' }) };

/** A closed object whose every property is required (the service always writes each one, null or not). */
const object = (properties: Record<string, object>, optional: readonly string[] = []): Record<string, unknown> => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties).filter((name) => !optional.includes(name)),
  properties,
});

/** A page of a list route: items and the continuation of the next page (null on the last). */
const page = (item: object, extra: Record<string, object> = {}): Record<string, unknown> =>
  object({
    ...extra,
    items: { type: 'array', items: item },
    continuation: { type: ['string', 'null'], description: 'Pass unchanged as `continuation` for the next page; null on the last page.' },
  });

const partner = object({
  partner_id: text,
  name: text,
  status: { enum: ['ACTIVE', 'INACTIVE'] },
  rate_limit_per_minute: count,
  rate_limit_is_default: { type: 'boolean' },
  created_at: timestamp,
});

const partnerKey = object({
  key_id: text,
  status: { enum: ['ACTIVE', 'EXPIRED', 'REVOKED'] },
  created_at: timestamp,
  expires_at: timestampOrNull,
  revoked_at: timestampOrNull,
});

const partnerStore = object({
  store_id: text,
  registered_at: timestampOrNull,
  store_name: textOrNull,
  currency: textOrNull,
  time_zone: textOrNull,
  workday_start: textOrNull,
  status: { enum: ['ACTIVE', 'INACTIVE', null], description: "The partner's store master data; null until it is sent." },
  registration_status: {
    enum: ['ACTIVE', 'RETIRED'],
    description: 'HQ’s registration: RETIRED when HQ retired the store, which then takes nothing the partner sends.',
  },
  retired_at: { ...timestampOrNull, description: 'When the store was retired (UTC ISO 8601); null while it is ACTIVE.' },
});

const gridCell = object({
  business_date: date,
  status: dayStatus,
  overdue: { type: 'boolean' },
  close_due_at: timestamp,
  close_received_at: timestampOrNull,
  checked_at: timestampOrNull,
  differences: { type: 'array', items: text },
});

const gridRow = object({
  partner_id: text,
  store_id: text,
  store_name: textOrNull,
  currency: textOrNull,
  time_zone: textOrNull,
  active: { type: 'boolean' },
  days: { type: 'array', items: gridCell },
});

const storeDay = object(
  {
    partner_id: text,
    store_id: text,
    business_date: date,
    status: dayStatus,
    overdue: { type: 'boolean' },
    close_due_at: timestamp,
    checked_at: timestampOrNull,
    next_run_due_at: {
      ...timestampOrNull,
      description:
        "When the reconciliation run a daily close or a late batch scheduled is due, while it is awaited; status and figures are the last run's until then. Null when none is awaited.",
    },
    currency: textOrNull,
    close: {
      oneOf: [object({ batch_id: text, received_at: timestamp, closed_at: text, batch_count: count, currency: text }), { type: 'null' }],
    },
    expected: { oneOf: [controlTotals, { type: 'null' }] },
    actual: { oneOf: [controlTotals, { type: 'null' }] },
    comparison: {
      type: 'array',
      items: object({
        field: text,
        expected: text,
        actual: text,
        difference: { ...textOrNull, description: 'actual − expected; null when it cannot be computed.' },
        differs: { type: 'boolean' },
      }),
    },
    differences: { type: 'array', items: text },
    diagnosis: {
      oneOf: [{ $ref: componentRef({ file: 'responses.schema.json', def: 'diagnosis' }) }, { type: 'null' }],
      description: 'The diagnosis the partner API also returns; null until reconciled.',
    },
    batches: {
      type: 'array',
      items: object({
        batch_id: text,
        batch_seq: count,
        received_at: timestampOrNull,
        record_count: count,
        after_close: { type: 'boolean' },
        failed: { type: 'boolean', description: 'The batch ended FAILED: none of its transactions count.' },
      }),
    },
    batches_truncated: { const: true, description: 'Present when more batches arrived than are listed.' },
  },
  ['batches_truncated'],
);

const currencyTotals = {
  currency: text,
  net_sales: amount,
  tax_amount: amount,
  tip_amount: amount,
  transaction_count: count,
};

export const responseSchemas = {
  whoami: object({ operator: text, role: { enum: ['viewer', 'admin'] }, key_id: text, expires_at: timestampOrNull }),
  storeDayGridPage: page(gridRow, {
    from: date,
    to: date,
    generated_at: timestamp,
    counts: object({ NOT_RECEIVED: count, RECEIVED: count, MATCHED: count, MISMATCHED: count, overdue: count }),
  }),
  storeDayDetail: storeDay,
  batchPage: page(
    object({
      partner_id: text,
      batch_id: text,
      kind: { enum: ['trade-records', 'daily-close', 'stores', 'products', 'mappings'] },
      state: { enum: ['PENDING', 'FAILED'] },
      created_at: timestamp,
      failed_at: timestampOrNull,
      failure: textOrNull,
    }),
  ),
  salesPage: page(
    object({ partner_id: text, store_id: text, standard_type: text, business_date: date, ...currencyTotals }, [
      'partner_id',
      'store_id',
      'standard_type',
      'business_date',
    ]),
    { from: date, to: date, group_by: { type: 'array', items: { enum: ['partner', 'store', 'standard_type', 'day'] } } },
  ),
  unmappedPage: page(
    object({
      partner_id: text,
      source_transaction_type: text,
      transaction_count: count,
      first_business_date: date,
      last_business_date: date,
      by_currency: { type: 'array', items: object(currencyTotals) },
    }),
  ),
  webhookFailureList: object(
    {
      items: {
        type: 'array',
        items: object({
          partner_id: text,
          event_id: text,
          event_type: {
            type: 'string',
            description: 'The type as a partner subscribes to it (`reconciliation.completed`), without the prefix the event carries.',
          },
          target_origin: { type: 'string', description: 'Scheme, host and port of the endpoint; never its path.' },
          attempts: count,
          last_error_class: text,
          last_status: { type: ['integer', 'null'] },
          created_at: timestamp,
          first_attempt_at: timestampOrNull,
          last_attempt_at: timestampOrNull,
          dead_lettered_at: timestamp,
        }),
      },
      items_truncated: { const: true, description: 'Present when older dead letters were left out.' },
    },
    ['items_truncated'],
  ),
  partnerPage: page(partner),
  partner,
  partnerStorePage: page(partnerStore),
  partnerStore,
  partnerKeyPage: page(partnerKey),
  partnerKey,
  paymentDirectionPage: page(object({ payment_type: text, direction: { enum: [1, -1, 0] } })),
  paymentDirection: object({ partner_id: text, payment_type: text, direction: { enum: [1, -1, 0] } }),
  storeRegistration: object({
    partner_id: text,
    registered: { type: 'array', items: text },
    already_registered: { type: 'array', items: text },
  }),
  openApiDocument: {
    type: 'object',
    required: ['openapi', 'info', 'paths'],
    properties: { openapi: { type: 'string', pattern: '^3\\.1\\.' }, info: { type: 'object' }, paths: { type: 'object' } },
    description: 'This OpenAPI 3.1 document.',
  },
} as const satisfies Record<string, object>;

export type ResponseName = keyof typeof responseSchemas;
