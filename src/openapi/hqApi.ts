import path from 'node:path';
import { findProjectRoot } from '../config/findProjectRoot.js';
import { errorCatalogue, type ErrorCode } from '../errors/errorCatalogue.js';
import { hqApiBase, type HqFunctionDefinition } from '../hq/http/hqFunctions.js';
import { responseSchemas } from '../hq/http/hqResponseSchemas.js';
import { bodySchemas, pathParameterSchemas, querySchemas } from '../hq/http/hqSchemas.js';
import { hqLimits } from '../hq/hqLimits.js';
import { readHostSettings } from '../localhost/readHostSettings.js';
import { errorBodyComponent, errorResponses } from './errorResponses.js';
import { errorTable } from './errorTable.js';
import { hqOperations, type HqOperationDoc } from './hqOperations.js';
import { openApiEnvelope } from './openApiEnvelope.js';
import { operationPaths } from './operationPaths.js';
import { schemaComponents } from './schemaComponents.js';

type JsonObject = Record<string, unknown>;

/** What every HQ call can meet: the key, the query string, storage trouble. */
const everyCall: readonly ErrorCode[] = ['INVALID_QUERY', 'UNAUTHORIZED', 'OPERATOR_KEY_REQUIRED', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'];
/** What an admin action can meet beyond that: a viewer's key, and its body. */
const everyAction: readonly ErrorCode[] = ['ADMIN_ROLE_REQUIRED', 'INVALID_PAYLOAD', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE'];

const hqCodes = [...everyCall, ...everyAction, ...Object.values(hqOperations).flatMap((doc) => doc.errors)];

const description = `HQ's own API, for its tools and the web console: the reconciliation grid, one store-day in detail, batches that are not committed, sales totals, partners with their stores and keys, and the admin actions the HQ tool (\`npm run hq\`) also offers. docs/hq-api.md describes each route in prose.

**Authentication:** every route takes an operator key (\`npm run hq -- operator issue\`) in the \`x-functions-key\` header. Role \`viewer\` may call every GET route; role \`admin\` every route. In Azure the key must also be a host key of the function app.

**Paging:** list routes answer \`{"items": [...], "continuation": "..." | null}\`; \`limit\` is 1 to ${hqLimits.pageMax} (default ${hqLimits.pageDefault}). A page may hold fewer items than \`limit\` while \`continuation\` is not null.

**Amounts** are decimal strings; timestamps are UTC ISO 8601.

**Errors** have the body \`{"error": {"code", "message", "request_id", "details": [{"path", "message"}]}}\`; branch on the code:

| HTTP | Code | Meaning |
|---|---|---|
${errorTable(hqCodes)}

A route or method the host does not know is answered 404 with an empty body.`;

const tags = [
  { name: 'Reconciliation', description: 'The grid of store-days and one store-day in detail.' },
  { name: 'Batches', description: 'Batches received but not committed.' },
  { name: 'Reports', description: 'Sales totals and the codes held back from them.' },
  { name: 'Partners', description: 'Partners, their stores, keys and payment directions.' },
  { name: 'Admin actions', description: 'Changes, for operators with the admin role; each is idempotent.' },
  { name: 'Operator', description: 'The caller and this document.' },
];

const parameterDescriptions: Readonly<Record<keyof typeof pathParameterSchemas, string>> = {
  partner_id: 'The partner.',
  store_id: 'A store registered for the partner.',
  key_id: "The id of one of the partner's keys.",
  business_date: 'Business date, YYYY-MM-DD.',
};

const hostNotes: Partial<Record<number, string>> = {
  401: 'A key the Functions host does not hold is refused by the host itself with an empty body; a key it holds that the service finds revoked, expired or unknown gets the error body.',
  413: 'A body over the limit may be refused by the host in front of the service before any of it is read.',
  500: 'Every HQ route and action is idempotent, so sending it again does no harm, though it will not fix the cause: give the request_id when reporting it.',
  503: 'Retry after the seconds in Retry-After.',
};

const title = 'POS Ingestion Service: HQ API';

/**
 * The HQ API's OpenAPI 3.1 document, built from the HQ route table (paths, methods, roles), the
 * request schemas the endpoints check with (query strings, bodies), the response schemas, the error
 * catalogue and the operation descriptions. Throws when a route and its description disagree.
 */
export function hqOpenApiDocument(functions: readonly HqFunctionDefinition[]): JsonObject {
  const root = findProjectRoot();
  const routePrefix = readHostSettings(path.join(root, 'host.json')).routePrefix;
  const shared = schemaComponents(path.join(root, 'schemas'));
  const errorBody = errorBodyComponent(shared);

  const base = `${hqApiBase}/`;
  const routed = functions.map((fn) => {
    if (!fn.route.startsWith(base)) throw new Error(`HQ function ${fn.name} is not below /${hqApiBase}.`);
    // Paths are relative to the server URL, which carries the route prefix and the base path.
    return { fn, route: fn.route, path: `/${fn.route.slice(base.length)}` };
  });
  const paths = operationPaths(title, routed, hqOperations, (fn, doc) => operation(fn, doc, errorBody));

  const components: Record<string, JsonObject> = {};
  for (const [name, schema] of Object.entries(responseSchemas)) components[componentName(name)] = schema;
  // The partner API's schemas a response refers to (control totals), and what they refer to.
  for (const name of referencedComponents(components, shared)) {
    if (name in components) throw new Error(`The HQ schema ${name} would shadow the partner component of that name; rename it.`);
    components[name] = shared[name] as JsonObject;
  }

  return openApiEnvelope({
    title,
    version: '1.0.0',
    description,
    serverUrl: `/${[routePrefix, hqApiBase].filter((part) => part !== '').join('/')}`,
    tags,
    security: {
      scheme: 'operatorKey',
      header: 'x-functions-key',
      description: 'An operator key issued with `npm run hq -- operator issue`. Partner keys are refused (403 OPERATOR_KEY_REQUIRED).',
    },
    paths,
    schemas: components,
  });
}

function operation(fn: HqFunctionDefinition, doc: HqOperationDoc, errorBody: JsonObject): JsonObject {
  const role = fn.access === 'admin' ? 'Role: admin.' : 'Role: viewer or admin.';
  const op: JsonObject = { operationId: fn.name, tags: [doc.tag], summary: doc.summary, description: `${doc.description}\n\n${role}` };
  const parameters = [...pathParameters(fn), ...queryParameters(doc)];
  if (parameters.length > 0) op.parameters = parameters;
  if (doc.body !== undefined) {
    op.requestBody = {
      required: doc.body !== 'empty',
      description: `Content-Type: application/json, UTF-8, at most ${hqLimits.maxBodyBytes} bytes; unknown fields are refused.`,
      content: { 'application/json': { schema: bodySchemas[doc.body] } },
    };
  }
  const errors = [...everyCall, ...(fn.access === 'admin' ? everyAction : []), ...doc.errors];
  op.responses = {
    '200': {
      description: doc.response.description,
      content: { 'application/json': { schema: { $ref: `#/components/schemas/${componentName(doc.response.schema)}` } } },
    },
    ...errorResponses(errors, {
      errorBody,
      maxBodyBytes: hqLimits.maxBodyBytes,
      notes: hostNotes,
      example: (code) => errorExample(code, doc),
    }),
  };
  return op;
}

function pathParameters(fn: HqFunctionDefinition): JsonObject[] {
  return [...fn.route.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    if (name === undefined || !(name in pathParameterSchemas)) throw new Error(`HQ route ${fn.route} has a parameter without a schema.`);
    const key = name as keyof typeof pathParameterSchemas;
    return { name, in: 'path', required: true, description: parameterDescriptions[key], schema: pathParameterSchemas[key] };
  });
}

function queryParameters(doc: HqOperationDoc): JsonObject[] {
  const schema = querySchemas[doc.query] as { required: readonly string[]; properties: Record<string, { description?: string }> };
  return Object.entries(schema.properties).map(([name, property]) => ({
    name,
    in: 'query',
    required: schema.required.includes(name),
    description: property.description,
    schema: property,
  }));
}

function errorExample(code: ErrorCode, doc: HqOperationDoc): JsonObject {
  const error: JsonObject = { code, message: errorCatalogue[code].message };
  if (code === 'INVALID_QUERY') error.details = [{ path: '/limit', message: `must be a whole number from 1 to ${hqLimits.pageMax}` }];
  if (code === 'INVALID_PAYLOAD' && doc.body !== undefined && doc.body !== 'empty') {
    const first = Object.keys((bodySchemas[doc.body] as { properties: object }).properties)[0] ?? '';
    error.details = [{ path: `/${first}`, message: 'is required' }];
  }
  return { error };
}

/** `storeDayGridPage` → `StoreDayGridPage`. */
function componentName(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Names of the components of `available` that `schemas` refer to, directly or through each other. */
function referencedComponents(schemas: Record<string, unknown>, available: Record<string, unknown>): string[] {
  const prefix = '#/components/schemas/';
  const found = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        if (key === '$ref' && typeof child === 'string' && child.startsWith(prefix)) {
          const name = child.slice(prefix.length);
          if (name in available && !found.has(name)) {
            found.add(name);
            visit(available[name]);
          }
        } else visit(child);
      }
    }
  };
  visit(schemas);
  return [...found].sort();
}
