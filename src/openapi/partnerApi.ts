import path from 'node:path';
import type { Config } from '../config/Config.js';
import { findProjectRoot } from '../config/findProjectRoot.js';
import type { FunctionDefinition } from '../functions/FunctionDefinition.js';
import { readHostSettings } from '../localhost/readHostSettings.js';
import { buildOpenApiDocument, type ApiDescription } from './buildOpenApiDocument.js';
import { errorTable } from './errorTable.js';
import { partnerExamples } from './partnerExamples.js';
import { partnerOperations } from './partnerOperations.js';
import { partnerWebhooks } from './partnerWebhooks.js';

/** The codes a partner route can answer: those its operations list, not the HQ API's. */
const partnerCodes = Object.values(partnerOperations).flatMap((doc) => doc.errors);

const description = `Partner chains push point-of-sale data to HQ: store and product master data, a transaction-type mapping, transaction batches and a daily close with control totals per store and business date. HQ recomputes each store-day and answers whether it reconciles.

**Order of calls:** read the standard transaction types once, upload the mapping, the stores and the products, push the day's transaction batches, send the daily close last, then read the reconciliation result about 30 minutes later.

**Authentication:** every call but /health carries the partner's API key in the \`x-functions-key\` header. The partner is known from the key; a store must be registered for the partner by HQ before any call names it.

**Idempotency:** every push carries a partner-chosen UUID \`batch_id\`. Sending the same batch again (after a timeout, a dropped connection, 429 or 503) with the same batch_id is safe: it is applied once, and the repeat is answered 200 ALREADY_RECEIVED. A 500 is not fixed by sending the same request again: give HQ its request_id.

**Amounts** are decimal strings with exactly the currency's minor-unit digits (USD 2, JPY 0). **Timestamps** carry a UTC offset.

**Errors** have the body \`{"error": {"code", "message", "request_id", "details": [{"path", "message"}]}}\`; branch on the code, never on the message, and give HQ the request_id when asking about one:

| HTTP | Code | Meaning |
|---|---|---|
${errorTable(partnerCodes)}

A route the host does not know is answered 404 with an empty body.`;

/**
 * The partner API at /pos/v1 (the contract).
 * @internal read by the test that builds the document with limits of its own.
 */
export const partnerApi: ApiDescription = {
  title: 'POS Ingestion Service: partner API',
  version: '1.0.0',
  description,
  basePath: 'pos/v1',
  tags: [
    { name: 'Transactions', description: 'Transaction batches of a store and business date.' },
    { name: 'Daily close', description: 'Control totals of a store-day and the reconciliation result.' },
    { name: 'Master data', description: 'Stores and products.' },
    { name: 'Mapping', description: "The partner's transaction codes mapped to HQ standard types." },
    { name: 'Reference', description: 'HQ reference lists.' },
    { name: 'Webhooks', description: 'Events the service sends to the partner: reconciliation results and failed batches.' },
    { name: 'Health', description: 'Liveness of the service.' },
  ],
  security: {
    header: 'x-functions-key',
    description: 'The API key HQ issued to the partner for this environment. Never put it in source code, logs or e-mail.',
  },
  operations: partnerOperations,
  examples: partnerExamples,
  undocumented: ['partnerOpenApi', 'partnerDocs', 'partnerDocsAsset'],
  webhooks: partnerWebhooks(),
};

/**
 * The configured limits the partner document states, and the event type prefix its events carry
 * (left out for the checked-in document, which describes no one environment).
 */
export type PartnerApiLimits = Pick<Config, 'maxRequestBodyBytes' | 'maxTransactionsPerStoreDay' | 'maxBatchesPerStoreDay'> &
  Partial<Pick<Config, 'eventTypePrefix'>>;

/** The partner API's OpenAPI document for the app as configured (routes from host.json). */
export function partnerOpenApiDocument(functions: readonly FunctionDefinition[], limits: PartnerApiLimits): Record<string, unknown> {
  const root = findProjectRoot();
  const api = limits.eventTypePrefix === undefined ? partnerApi : { ...partnerApi, webhooks: partnerWebhooks(limits.eventTypePrefix) };
  return buildOpenApiDocument(api, {
    functions,
    routePrefix: readHostSettings(path.join(root, 'host.json')).routePrefix,
    schemaFolder: path.join(root, 'schemas'),
    maxRequestBodyBytes: limits.maxRequestBodyBytes,
    storeDayLimits: { maxTransactions: limits.maxTransactionsPerStoreDay, maxBatches: limits.maxBatchesPerStoreDay },
  });
}
