import { errorCatalogue, type ErrorCode } from '../errors/errorCatalogue.js';

type JsonObject = Record<string, unknown>;

export interface ErrorResponseOptions {
  /** The error body schema (responses.schema.json's errorBody as a component). */
  readonly errorBody: JsonObject;
  /** The body limit quoted under PAYLOAD_TOO_LARGE. */
  readonly maxBodyBytes: number;
  /** A note per status on what the host in front of the service does, or what the caller should. */
  readonly notes: Partial<Record<number, string>>;
  /** The example body of one code. */
  readonly example: (code: ErrorCode) => JsonObject;
}

/** The error body every error response narrows: responses.schema.json's errorBody, among the schemas' components. */
export function errorBodyComponent(components: Readonly<Record<string, JsonObject>>): JsonObject {
  const errorBody = components.ErrorBody;
  if (errorBody === undefined) throw new Error('responses.schema.json must define errorBody.');
  return errorBody;
}

/**
 * The error responses of one operation, one per status, from the catalogue: every code of the
 * status with its message, the error body with its code narrowed to those codes, an example per
 * code and Retry-After on 429 (required) and 503.
 */
export function errorResponses(codes: readonly ErrorCode[], options: ErrorResponseOptions): Record<string, JsonObject> {
  const responses: Record<string, JsonObject> = {};
  for (const [status, group] of byStatus(codes)) {
    const lines = group.map((code) => `\`${code}\`: ${errorCatalogue[code].message}`);
    if (group.includes('PAYLOAD_TOO_LARGE')) lines.push(`The limit is ${options.maxBodyBytes} bytes.`);
    const note = options.notes[status];
    if (note !== undefined) lines.push(note);
    const examples: Record<string, JsonObject> = {};
    for (const code of group) examples[code] = { summary: code, value: options.example(code) };
    const response: JsonObject = {
      description: lines.join('\n\n'),
      content: { 'application/json': { schema: errorBodyFor(group, options.errorBody), examples } },
    };
    if (status === 429 || status === 503) response.headers = { 'Retry-After': retryAfterHeader(status === 429) };
    responses[String(status)] = response;
  }
  return responses;
}

/** The Retry-After header of a response. */
export function retryAfterHeader(required: boolean): JsonObject {
  return {
    description: 'Seconds to wait before retrying.',
    required,
    schema: { type: 'integer', minimum: 0 },
    example: 5,
  };
}

function byStatus(codes: readonly ErrorCode[]): Map<number, ErrorCode[]> {
  const groups = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = errorCatalogue[code].status;
    const group = groups.get(status) ?? [];
    if (!group.includes(code)) group.push(code);
    groups.set(status, group);
  }
  return new Map([...groups].sort(([a], [b]) => a - b));
}

/** The error body with its code narrowed to the codes of one status of one operation. */
function errorBodyFor(codes: readonly ErrorCode[], errorBody: JsonObject): JsonObject {
  const schema = structuredClone(errorBody) as { properties: { error: { properties: { code: JsonObject } } } };
  schema.properties.error.properties.code = { ...schema.properties.error.properties.code, enum: codes };
  return schema;
}
