import { readFileSync } from 'node:fs';
import path from 'node:path';
import { errorCatalogue, type ErrorCode } from '../errors/errorCatalogue.js';
import { errorBodyComponent, errorResponses, retryAfterHeader } from './errorResponses.js';
import type { FunctionDefinition, HttpFunctionDefinition } from '../functions/FunctionDefinition.js';
import type { OperationDoc } from './OperationDoc.js';
import { openApiEnvelope } from './openApiEnvelope.js';
import { operationPaths, type RoutedFunction } from './operationPaths.js';
import type { OperationExamples } from './partnerExamples.js';
import { componentRef } from './SchemaRef.js';
import { schemaComponents } from './schemaComponents.js';
import type { WebhookDoc } from './WebhookDoc.js';
import type { StoreDayLimits } from '../domain/validation/storeDayOverLimit.js';

type JsonObject = Record<string, unknown>;

/** One API of the app (the partner API, later HQ's): which routes it owns and what to say about them. */
export interface ApiDescription {
  readonly title: string;
  readonly version: string;
  /** Markdown shown above the operations. */
  readonly description: string;
  /** Route of the API's root without slashes, e.g. `pos/v1`. */
  readonly basePath: string;
  readonly tags: readonly { readonly name: string; readonly description: string }[];
  readonly security: { readonly header: string; readonly description: string };
  readonly operations: Readonly<Record<string, OperationDoc>>;
  readonly examples: Readonly<Record<string, OperationExamples>>;
  /** Functions under basePath that serve the documentation itself and are left out of it. */
  readonly undocumented: readonly string[];
  /** Events the service sends to the API's callers, by event name: the document's `webhooks`. */
  readonly webhooks?: Readonly<Record<string, WebhookDoc>>;
}

export interface OpenApiInput {
  readonly functions: readonly FunctionDefinition[];
  /** host.json `extensions.http.routePrefix`, without slashes ('' for none). */
  readonly routePrefix: string;
  readonly schemaFolder: string;
  readonly maxRequestBodyBytes: number;
  /** What a store-day may receive, for the operations whose request body says `storeDayLimited`. */
  readonly storeDayLimits?: StoreDayLimits;
}

const securitySchemeName = 'functionKey';

/**
 * Builds the OpenAPI 3.1 document of one API from the function table (paths, methods, auth), the
 * JSON Schemas ajv enforces (bodies, as components), the error catalogue (every error response)
 * and the operation descriptions. Nothing is restated: a route, schema or error code changed in
 * its one place changes the document. Throws when a function and its description disagree.
 */
export function buildOpenApiDocument(api: ApiDescription, input: OpenApiInput): JsonObject {
  const schemas = schemaComponents(input.schemaFolder);
  const errorBody = errorBodyComponent(schemas);
  const base = `${api.basePath}/`;
  const functions: RoutedFunction<HttpFunctionDefinition>[] = [];
  for (const fn of input.functions) {
    if (fn.trigger !== 'http') continue;
    const route = [input.routePrefix, fn.route].filter((part) => part !== '').join('/');
    if (!route.startsWith(base) || api.undocumented.includes(fn.name)) continue;
    functions.push({ fn, route, path: '/' + route.slice(base.length) });
  }
  const paths = operationPaths(api.title, functions, api.operations, (fn, doc) =>
    operation(fn, doc, api.examples[fn.name], input, errorBody),
  );
  // Each error response carries the error body with its codes narrowed to that status, inline;
  // the general shape would only be an unused component beside them.
  delete schemas.ErrorBody;

  return openApiEnvelope({
    title: api.title,
    version: api.version,
    description: api.description,
    serverUrl: `/${api.basePath}`,
    tags: api.tags,
    security: { scheme: securitySchemeName, header: api.security.header, description: api.security.description },
    paths,
    ...(api.webhooks === undefined ? {} : { webhooks: webhookItems(api.webhooks) }),
    schemas,
  });
}

function operation(
  fn: HttpFunctionDefinition,
  doc: OperationDoc,
  examples: OperationExamples | undefined,
  input: OpenApiInput,
  errorBody: JsonObject,
): JsonObject {
  const op: JsonObject = { operationId: fn.name, tags: [doc.tag], summary: doc.summary, description: doc.description };
  if (fn.authLevel === 'anonymous') op.security = [];
  if (doc.parameters) {
    op.parameters = doc.parameters.map((parameter) => ({
      name: parameter.name,
      in: 'path',
      required: true,
      description: parameter.description,
      schema: { $ref: componentRef(parameter.schema) },
      ...(examples?.parameters?.[parameter.name] === undefined ? {} : { example: examples.parameters[parameter.name] }),
    }));
  }
  if (doc.requestBody) {
    const limits = [
      `At most ${input.maxRequestBodyBytes} bytes (${mebibytes(input.maxRequestBodyBytes)}); a larger body is answered 413 PAYLOAD_TOO_LARGE.`,
    ];
    const field = doc.requestBody.limitedArray;
    if (field !== undefined) {
      const max = arrayLimit(input.schemaFolder, doc.requestBody.schema.file, field);
      limits.push(
        max === undefined
          ? `More entries in ${field} than the batch limit are answered 400 BATCH_TOO_LARGE.`
          : `At most ${max} entries in ${field}; more are answered 400 BATCH_TOO_LARGE.`,
      );
    }
    const day = input.storeDayLimits;
    if (doc.requestBody.storeDayLimited) {
      if (day === undefined) throw new Error(`${fn.name} is limited per store-day, and the document was given no store-day limits.`);
      limits.push(
        `A store and business date take at most ${day.maxTransactions} transactions, summed over their batches (a transaction sent again counts again), and at most ${day.maxBatches} batches; a batch that would pass either is answered 400 STORE_DAY_TOO_LARGE.`,
      );
    }
    op.requestBody = {
      required: true,
      description: `Content-Type: application/json, UTF-8. ${limits.join(' ')}`,
      content: {
        'application/json': {
          schema: { $ref: componentRef(doc.requestBody.schema) },
          ...(examples?.request === undefined ? {} : { example: examples.request }),
        },
      },
    };
  }
  const responses: Record<string, JsonObject> = {};
  for (const success of doc.responses) {
    const example = examples?.responses[success.status];
    responses[String(success.status)] = {
      description: success.description,
      ...(success.retryAfter ? { headers: { 'Retry-After': retryAfterHeader(false) } } : {}),
      ...(success.schema === undefined
        ? {}
        : {
            content: {
              'application/json': { schema: { $ref: componentRef(success.schema) }, ...(example === undefined ? {} : { example }) },
            },
          }),
    };
  }
  Object.assign(
    responses,
    errorResponses(doc.errors, {
      errorBody,
      maxBodyBytes: input.maxRequestBodyBytes,
      notes: hostNotes,
      example: (code) => errorExample(code, doc),
    }),
  );
  op.responses = responses;
  return op;
}

/** The Standard Webhooks headers every delivery carries, as the receiver's parameters. */
const webhookHeaders = [
  { name: 'webhook-id', description: "The event's id: the same on every attempt. Deduplicate on it." },
  {
    name: 'webhook-timestamp',
    description: "The attempt's time in whole seconds since the Unix epoch. Refuse one more than 5 minutes away.",
  },
  {
    name: 'webhook-signature',
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the base64-decoded bytes after `whsec_` of the webhook secret; two during a secret rotation, one per secret.',
  },
];

/** One `webhooks` entry per event: the POST a partner's endpoint receives, and what its answers do. */
function webhookItems(webhooks: Readonly<Record<string, WebhookDoc>>): Record<string, JsonObject> {
  const items: Record<string, JsonObject> = {};
  for (const [name, doc] of Object.entries(webhooks)) {
    items[name] = {
      post: {
        operationId: `${name.replace(/\.(.)/g, (_dot, letter: string) => letter.toUpperCase())}Event`,
        tags: ['Webhooks'],
        summary: doc.summary,
        description: doc.description,
        // Signed with the webhook secret instead of carrying a key.
        security: [],
        parameters: webhookHeaders.map((header) => ({
          name: header.name,
          in: 'header',
          required: true,
          description: header.description,
          schema: { type: 'string' },
        })),
        requestBody: {
          required: true,
          content: { 'application/cloudevents+json': { schema: { $ref: componentRef(doc.schema) }, example: doc.example } },
        },
        responses: {
          '2XX': { description: 'Received: the event is not sent again. Answer quickly and do the work later.' },
          '410': {
            description:
              'Gone: this event is not sent again, and the endpoint is disabled: no later event is sent or kept for it until a PUT /webhook registers it again (its disabled_at tells when).',
          },
          default: {
            description: 'Any other answer (a redirect included), like a timeout or a network error: the event is sent again later.',
          },
        },
      },
    };
  }
  return items;
}

const hostNotes: Partial<Record<number, string>> = {
  401: 'A key the Functions host does not hold is refused by the host itself with an empty body; a key it holds that the service finds revoked or expired gets the error body.',
  413: 'A body over the limit may be refused by the host in front of the service before any of it is read.',
  429: 'Wait the number of seconds in Retry-After, then send the same body with the same batch_id.',
  500: 'Final: sending the same request again does not help (a BATCH_FAILED batch stays failed). Give HQ the request_id.',
  503: 'Retry after the seconds in Retry-After (when given) with the same batch_id.',
};

function errorExample(code: ErrorCode, doc: OperationDoc): JsonObject {
  const error: JsonObject = { code, message: errorCatalogue[code].message };
  if (code === 'INVALID_PAYLOAD') {
    error.message = doc.requestBody ? 'The body does not match the schema.' : 'business_date must be a calendar date YYYY-MM-DD.';
    error.details = doc.requestBody
      ? [{ path: '/batch_id', message: 'must be a UUID such as 3f2b8c1e-7d4a-4e55-9a0b-1c2d3e4f5a6b' }]
      : [{ path: '/business_date', message: 'must be a calendar date YYYY-MM-DD' }];
  }
  if (code === 'UNKNOWN_STANDARD_CODE')
    error.details = [{ path: '/mappings/2/standard_code', message: 'is not in the standard transaction type list' }];
  return { error };
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 2)} MiB`;
}

/** maxItems of a top-level array of a body schema: the batch limit stated once, in the schema. */
function arrayLimit(schemaFolder: string, file: string, field: string): number | undefined {
  const schema = JSON.parse(readFileSync(path.join(schemaFolder, file), 'utf8')) as { properties?: Record<string, { maxItems?: unknown }> };
  const max = schema.properties?.[field]?.maxItems;
  return typeof max === 'number' ? max : undefined;
}
