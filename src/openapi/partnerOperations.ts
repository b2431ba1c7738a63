import type { ErrorCode } from '../errors/errorCatalogue.js';
import type { OperationDoc, SuccessDoc } from './OperationDoc.js';

const ack = { file: 'responses.schema.json', def: 'batchAcknowledgement' } as const;
const webhook = { file: 'responses.schema.json', def: 'webhook' } as const;

/** 202 on first receipt, 200 on a repeat: every push answers both ways (contract §2.2). */
const acknowledged: readonly SuccessDoc[] = [
  { status: 202, description: 'ACCEPTED: the batch was received, validated and stored. Reconciliation comes later.', schema: ack },
  {
    status: 200,
    description:
      'ALREADY_RECEIVED: this batch_id was received before. The body repeats the first receipt (record_count, warnings); different content under the same batch_id is not applied and adds a BATCH_ID_REUSED warning (the same JSON written otherwise, in key order, spacing or letter case of the batch_id, is a plain repeat).',
    schema: ack,
  },
];

/** What any authenticated call can meet: key problems, an inactive partner, storage trouble. */
const everyCall: readonly ErrorCode[] = ['UNAUTHORIZED', 'PARTNER_INACTIVE', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
/** What any push can meet before its body is parsed. */
const everyPush: readonly ErrorCode[] = [...everyCall, 'INVALID_PAYLOAD', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE', 'BATCH_FAILED'];

/** How to send a push again; only /trade-records is rate-limited, so only it names a 429. */
function idempotencyNote(rateLimited: boolean): string {
  const after = rateLimited ? 'a timeout, a dropped connection, a 429 or a 503' : 'a timeout, a dropped connection or a 503';
  return `batch_id is the idempotency key: after ${after}, send the very same body again with the same batch_id; the batch is applied once. A 500 BATCH_FAILED batch stays failed: give HQ the request_id.`;
}
const idempotency = idempotencyNote(false);

/** The partner API's operations, by function name (DESIGN §2's table holds route, method and auth). */
export const partnerOperations: Readonly<Record<string, OperationDoc>> = {
  pushTradeRecords: {
    tag: 'Transactions',
    summary: 'Push a batch of transactions',
    description: `One store and business date per batch; a day may be split into several batches, numbered by batch_seq from 1. Every record's store_id and business_date must equal the batch's. A record whose amounts break the amount identity is accepted with an AMOUNT_MISMATCH warning; an unknown product_id or unmapped source_transaction_type is accepted with a warning and re-mapped once the data arrives. A trade_record_id is unique within the partner: a change is sent whole with version + 1, and the highest version wins; sent under another store or business date, it moves the transaction there, and the day it left is reconciled again (resend that day's close without it). An older or equal version under another day, or any version while the day that holds it is a store HQ retired, is ignored with a STALE_VERSION warning naming that day. ${idempotencyNote(true)}`,
    requestBody: { schema: { file: 'trade-records.schema.json' }, limitedArray: 'trade_records', storeDayLimited: true },
    responses: acknowledged,
    errors: [...everyPush, 'BATCH_TOO_LARGE', 'STORE_DAY_TOO_LARGE', 'STORE_NOT_ALLOWED', 'RATE_LIMITED'],
  },
  pushDailyClose: {
    tag: 'Daily close',
    summary: 'Send the daily close',
    description: `Control totals of one store and business date, sent after every transaction batch of that day. The last daily close received counts; every resend needs a new batch_id. Reconciliation starts about 15 minutes later. ${idempotency}`,
    requestBody: { schema: { file: 'daily-close.schema.json' } },
    responses: acknowledged,
    errors: [...everyPush, 'STORE_NOT_ALLOWED'],
  },
  getReconciliation: {
    tag: 'Daily close',
    summary: 'Read the reconciliation result of a store-day',
    description:
      'NOT_RECEIVED until a daily close arrives, RECEIVED while reconciliation is pending (again after a late batch, until the run that counts it starts), then MATCHED or MISMATCHED with the figures compared. Query about 30 minutes after sending the daily close.',
    parameters: [
      { name: 'store_id', description: 'A store registered for the partner.', schema: { file: 'common.schema.json', def: 'identifier' } },
      { name: 'business_date', description: 'Business date, YYYY-MM-DD.', schema: { file: 'common.schema.json', def: 'date' } },
    ],
    responses: [
      {
        status: 200,
        description: 'The reconciliation state of the store-day.',
        schema: { file: 'responses.schema.json', def: 'reconciliationResult' },
      },
    ],
    errors: [...everyCall, 'INVALID_PAYLOAD', 'STORE_NOT_ALLOWED'],
  },
  putStores: {
    tag: 'Master data',
    summary: 'Upsert stores',
    description: `Store master data, upserted by store_id: the later last_modified_at wins, and a copy with the stored last_modified_at replaces it. Every store must first be registered for the partner by HQ. ${idempotency}`,
    requestBody: { schema: { file: 'stores.schema.json' }, limitedArray: 'stores' },
    responses: acknowledged,
    errors: [...everyPush, 'BATCH_TOO_LARGE', 'STORE_NOT_ALLOWED'],
  },
  putProducts: {
    tag: 'Master data',
    summary: 'Upsert products and modifier groups',
    description: `Changed products (version + 1 on every change) and modifier groups, before the day's transactions. products may be empty when only modifier groups change. ${idempotency}`,
    requestBody: { schema: { file: 'products.schema.json' }, limitedArray: 'products' },
    responses: acknowledged,
    errors: [...everyPush, 'BATCH_TOO_LARGE', 'STORE_NOT_ALLOWED'],
  },
  putMapping: {
    tag: 'Mapping',
    summary: 'Replace the transaction-type mapping',
    description: `Full replacement: every upload carries the complete list, and entries left out are removed. Days already reconciled with codes this upload maps are reconciled again. ${idempotency}`,
    requestBody: { schema: { file: 'mappings.schema.json' } },
    responses: acknowledged,
    errors: [...everyPush, 'UNKNOWN_STANDARD_CODE'],
  },
  getMapping: {
    tag: 'Mapping',
    summary: 'Read the current mapping',
    description: 'The mapping in effect; an empty list with null batch_id and updated_at when none was ever uploaded.',
    responses: [{ status: 200, description: 'The current mapping.', schema: { file: 'responses.schema.json', def: 'currentMapping' } }],
    errors: everyCall,
  },
  getReferenceTransactionTypes: {
    tag: 'Reference',
    summary: 'List the standard transaction types',
    description:
      'The versioned list of HQ standard transaction types, to map the POS codes to. Fetch it before go-live and again when HQ announces a change.',
    responses: [
      { status: 200, description: 'The standard list.', schema: { file: 'responses.schema.json', def: 'standardTransactionTypeList' } },
    ],
    errors: everyCall,
  },
  putWebhook: {
    tag: 'Webhooks',
    summary: 'Register or replace the webhook endpoint',
    description:
      "The partner's one https endpoint and the event types to receive there (reconciliation.completed, reconciliation.changed, batch.failed), as CloudEvents signed with the webhook secret. A full replace: the event types sent are the ones in effect. The first registration answers 201 with the signing secret, this once; a later replace answers 200 without it and keeps the secret, and enables an endpoint disabled after it answered 410 Gone. The URL must resolve to a public address.",
    requestBody: { schema: { file: 'webhook.schema.json' } },
    responses: [
      {
        status: 201,
        description: 'Registered: the body carries the signing secret, shown this once.',
        schema: { file: 'responses.schema.json', def: 'webhookWithSecret' },
      },
      { status: 200, description: 'Replaced: URL and event types changed, the secret kept.', schema: webhook },
    ],
    errors: [...everyCall, 'INVALID_PAYLOAD', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'],
  },
  getWebhook: {
    tag: 'Webhooks',
    summary: 'Read the webhook endpoint',
    description:
      'The registered endpoint and event types, never the secret; previous_secret_expires_at tells whether a rotated-out secret still signs, and disabled_at whether the endpoint is disabled (it answered 410 Gone; a PUT enables it).',
    responses: [{ status: 200, description: 'The registered endpoint.', schema: webhook }],
    errors: [...everyCall, 'WEBHOOK_NOT_FOUND'],
  },
  deleteWebhook: {
    tag: 'Webhooks',
    summary: 'Remove the webhook endpoint',
    description: 'No more events are sent; events not yet delivered are dropped, and never sent to an endpoint registered after this.',
    responses: [{ status: 204, description: 'Removed.' }],
    errors: [...everyCall, 'WEBHOOK_NOT_FOUND'],
  },
  rotateWebhookSecret: {
    tag: 'Webhooks',
    summary: 'Rotate the webhook signing secret',
    description:
      'A new signing secret, answered this once. For 24 hours deliveries carry signatures by both the new and the previous secret, so the receiver can switch over without losing an event. Only one previous secret is kept: a second rotation within those 24 hours stops the first secret signing at once.',
    responses: [
      {
        status: 200,
        description: 'The new secret, shown this once.',
        schema: { file: 'responses.schema.json', def: 'webhookWithSecret' },
      },
    ],
    errors: [...everyCall, 'WEBHOOK_NOT_FOUND'],
  },
  health: {
    tag: 'Health',
    summary: 'Check that the service is up',
    description: 'Anonymous. 200 when the service and its storage answer, 503 otherwise.',
    responses: [
      { status: 200, description: 'The service is up.', schema: { file: 'responses.schema.json', def: 'health' } },
      {
        status: 503,
        description: 'Storage does not answer.',
        schema: { file: 'responses.schema.json', def: 'health' },
        retryAfter: true,
      },
    ],
    errors: [],
  },
};
