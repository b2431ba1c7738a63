import type { ErrorCode } from '../errors/errorCatalogue.js';
import type { ResponseName } from '../hq/http/hqResponseSchemas.js';
import type { BodyName, QueryName } from '../hq/http/hqSchemas.js';

/**
 * What the HQ API's OpenAPI document says about one HQ function beyond what the route table holds
 * (route, method, role). The query and body name the schemas of hqSchemas the endpoint checks its
 * request with; the response names its body's schema in hqResponseSchemas.
 */
export interface HqOperationDoc {
  readonly tag: string;
  readonly summary: string;
  readonly description: string;
  readonly query: QueryName;
  /** The JSON body an admin action takes (`empty`: none, or `{}`). */
  readonly body?: BodyName;
  readonly response: { readonly schema: ResponseName; readonly description: string };
  /** Codes of this route beyond those every HQ call (and every admin action) can meet. */
  readonly errors: readonly ErrorCode[];
}

const pageNote = 'Paged: pass `continuation` from the previous page, unchanged, with the same other parameters, until it is null.';

/** The HQ API's operations, by function name (src/hq/http/hqFunctions.ts holds route, method and role). */
export const hqOperations: Readonly<Record<string, HqOperationDoc>> = {
  hqWhoami: {
    tag: 'Operator',
    summary: 'Who the key belongs to',
    description:
      'The operator and role of the key, so a client can show or hide admin actions. `expires_at` is null for a key that does not expire.',
    query: 'none',
    response: { schema: 'whoami', description: 'The operator of the key.' },
    errors: [],
  },
  hqStoreDays: {
    tag: 'Reconciliation',
    summary: 'The reconciliation grid',
    description: `One row per registered store (ordered by partner_id, store_id), one cell per business date of the range (at most 62 days). Dates whose close fell due before the store was registered appear only when a close came for them; a retired store is inactive, with only the dates that have a close. A cell is overdue when no daily close arrived and the close is due. \`counts\` counts the cells of this page. ${pageNote}`,
    query: 'storeDays',
    response: { schema: 'storeDayGridPage', description: 'One page of stores with their cells.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqStoreDay: {
    tag: 'Reconciliation',
    summary: 'One store-day in detail',
    description:
      'The close, expected against actual per control total, the diagnosis and the batches received (at most 1,000). A day without a close is NOT_RECEIVED with close, expected, actual and diagnosis null.',
    query: 'none',
    response: { schema: 'storeDayDetail', description: 'The store-day.' },
    errors: ['PARTNER_NOT_FOUND', 'STORE_NOT_FOUND'],
  },
  hqBatches: {
    tag: 'Batches',
    summary: 'Batches that are not committed',
    description: `\`pending\`: received, not yet committed (the sweep finishes or drops them). \`failed\`: storage refused the content after validation; final, never counted. ${pageNote}`,
    query: 'batches',
    response: { schema: 'batchPage', description: 'One page of batches.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqSales: {
    tag: 'Reports',
    summary: 'Sales totals per group and currency',
    description: `Totals of mapped revenue transactions (latest version only) per the group keys asked for, then per currency (never added across currencies). At most 62 days. ${pageNote}`,
    query: 'sales',
    response: { schema: 'salesPage', description: 'One page of totals.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqUnmapped: {
    tag: 'Reports',
    summary: 'Codes held back from the sales data',
    description: `Transactions whose source_transaction_type has no mapping (or maps to a code outside the standard list), per partner and code, over every day that holds them back. Only the store-days noted as holding codes back are read, so a request's work grows with those days, not with the partner's history; a page sums whole partners from the continuation's partner on. ${pageNote}`,
    query: 'unmapped',
    response: { schema: 'unmappedPage', description: 'One page of unmapped codes.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqWebhookFailures: {
    tag: 'Partners',
    summary: 'Webhook deliveries given up',
    description:
      "Dead-lettered deliveries, newest first, everyone's or one partner's: who, which event, how many attempts and why the last failed, the endpoint's origin only (never the body, the secret or the URL's path). Not paged: `items_truncated` marks a list that left older ones out; name a partner to see them. The HQ tool's `webhook resend` and `webhook dismiss` act on them.",
    query: 'webhookFailures',
    response: { schema: 'webhookFailureList', description: 'The newest dead letters.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqPartners: {
    tag: 'Partners',
    summary: 'List partners',
    description: `Ordered by partner_id. \`rate_limit_per_minute\` is the limit in effect. ${pageNote}`,
    query: 'page',
    response: { schema: 'partnerPage', description: 'One page of partners.' },
    errors: [],
  },
  hqPartner: {
    tag: 'Partners',
    summary: 'One partner',
    description: 'The same object as an item of the partner list.',
    query: 'none',
    response: { schema: 'partner', description: 'The partner.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqPartnerStores: {
    tag: 'Partners',
    summary: "The partner's registered stores",
    description: `Ordered by store_id, retired stores included (\`registration_status\` RETIRED, with \`retired_at\`); the master data fields are null until the partner sends them. ${pageNote}`,
    query: 'page',
    response: { schema: 'partnerStorePage', description: 'One page of stores.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqPartnerKeys: {
    tag: 'Partners',
    summary: "The partner's API keys",
    description: `Ordered by created_at. Never a key or a hash. ${pageNote}`,
    query: 'page',
    response: { schema: 'partnerKeyPage', description: 'One page of keys.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqPartnerPaymentDirections: {
    tag: 'Partners',
    summary: "Directions of the partner's payment types",
    description: `The directions HQ registered for the partner's own payment_type codes. ${pageNote}`,
    query: 'page',
    response: { schema: 'paymentDirectionPage', description: 'One page of payment directions.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqRegisterStores: {
    tag: 'Admin actions',
    summary: 'Register stores for a partner',
    description: 'Like `npm run hq -- store register`. Idempotent: stores already registered are listed as such.',
    query: 'none',
    body: 'registerStores',
    response: { schema: 'storeRegistration', description: 'What was registered now and what was already.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqRetireStore: {
    tag: 'Admin actions',
    summary: 'Retire a store',
    description:
      'Like `npm run hq -- store retire`. No body, or `{}`. Everything the partner sends for the store is then refused with 403 STORE_NOT_ALLOWED, as for a store never registered (within PARTNER_CACHE_SECONDS on every instance, 30 s in Azure); its past reconciliations stay readable through GET /daily-close. Nothing is deleted: batches, results and report rows stay, and work already queued for the store finishes. Idempotent: a retired store keeps its first `retired_at`.',
    query: 'none',
    body: 'empty',
    response: { schema: 'partnerStore', description: 'The store, RETIRED.' },
    errors: ['PARTNER_NOT_FOUND', 'STORE_NOT_FOUND'],
  },
  hqReactivateStore: {
    tag: 'Admin actions',
    summary: 'Reactivate a retired store',
    description:
      'Like `npm run hq -- store reactivate`. No body, or `{}`. The partner may send for the store again at once. Idempotent: an ACTIVE store is left as it is.',
    query: 'none',
    body: 'empty',
    response: { schema: 'partnerStore', description: 'The store, ACTIVE.' },
    errors: ['PARTNER_NOT_FOUND', 'STORE_NOT_FOUND'],
  },
  hqSetPaymentDirection: {
    tag: 'Admin actions',
    summary: "Set a payment type's direction",
    description:
      'Like `npm run hq -- payment-type set-direction`. Closed days that used the payment type are reconciled again with the direction set (their results and report files follow). The answer comes once the direction is stored and the work is queued: the days are found and scheduled in the background, however many there are. Sending the request again schedules them again.',
    query: 'none',
    body: 'paymentDirection',
    response: { schema: 'paymentDirection', description: 'The direction in effect.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqDeactivatePartner: {
    tag: 'Admin actions',
    summary: 'Deactivate a partner',
    description:
      'Like `npm run hq -- partner deactivate`. No body, or `{}`. Every partner API call of the partner then gets 403 PARTNER_INACTIVE.',
    query: 'none',
    body: 'empty',
    response: { schema: 'partner', description: 'The partner, INACTIVE.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqActivatePartner: {
    tag: 'Admin actions',
    summary: 'Activate a partner',
    description: 'Like `npm run hq -- partner activate`. No body, or `{}`.',
    query: 'none',
    body: 'empty',
    response: { schema: 'partner', description: 'The partner, ACTIVE.' },
    errors: ['PARTNER_NOT_FOUND'],
  },
  hqRevokePartnerKey: {
    tag: 'Admin actions',
    summary: "Revoke a partner's key",
    description:
      'Like `npm run hq -- key revoke`. No body, or `{}`. In Azure, also delete the partner\'s host key for it (README, "Rotate a partner\'s key").',
    query: 'none',
    body: 'empty',
    response: { schema: 'partnerKey', description: 'The key, REVOKED.' },
    errors: ['PARTNER_NOT_FOUND', 'KEY_NOT_FOUND'],
  },
  hqOpenApi: {
    tag: 'Operator',
    summary: 'This document',
    description: 'The OpenAPI 3.1 document of the HQ API (also docs/hq-openapi.json in the repository).',
    query: 'none',
    response: { schema: 'openApiDocument', description: 'The document.' },
    errors: [],
  },
};
