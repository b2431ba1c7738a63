import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { ProblemDetail } from '../errors/ProblemDetail.js';
import { escapePointerToken, isDisplaySafeName } from '../domain/validation/jsonPointer.js';
import type { BatchKind } from '../domain/model/BatchKind.js';
import { calendarFormats } from './calendarFormats.js';

/** Every body with a schema: the pushes, and the webhook registration. */
export type BodyKind = BatchKind | 'webhook';

/** Validates a parsed body against its JSON Schema; an empty array means the body conforms. */
export interface BodyValidator {
  validate(kind: BodyKind, body: unknown): ProblemDetail[];
  /** The maxItems of a top-level array of the body's schema (the one place that limit is stated). */
  maxItems(kind: BatchKind, field: string): number | undefined;
}

/** A parsed JSON Schema file: its `$id` names it, its `$defs` name the shared definitions. */
export interface SchemaDocument {
  readonly $id: string;
  readonly $defs?: Readonly<Record<string, object>>;
}

const schemaBaseUri = 'https://pos-ingestion.invalid/schemas/';

const schemaFileByKind: Readonly<Record<BodyKind, string>> = {
  tradeRecords: 'trade-records.schema.json',
  dailyClose: 'daily-close.schema.json',
  stores: 'stores.schema.json',
  products: 'products.schema.json',
  mappings: 'mappings.schema.json',
  webhook: 'webhook.schema.json',
};

/**
 * Compiles the schema files (readSchemaFolder, or the partner kit's bundled copy) once. Call at
 * start-up and share the result: compiling takes tens of milliseconds, validating is fast.
 */
export function createBodyValidator(schemas: readonly SchemaDocument[]): BodyValidator {
  // verbose: errors carry the schema object that failed, which names the shared definition and
  // so chooses the message. The submitted data the errors also carry is never read.
  const ajv = new Ajv2020({ allErrors: true, strict: true, messages: false, verbose: true });
  addFormats(ajv, ['uuid']);
  for (const [name, format] of Object.entries(calendarFormats)) ajv.addFormat(name, format);
  const definitionNames = new WeakMap<object, string>();
  for (const schema of schemas) {
    for (const [name, definition] of Object.entries(schema.$defs ?? {})) definitionNames.set(definition, name);
    ajv.addSchema(schema);
  }
  const validators = new Map<BodyKind, ValidateFunction>();
  for (const [kind, file] of Object.entries(schemaFileByKind) as [BodyKind, string][]) {
    const validator = ajv.getSchema(schemaBaseUri + file);
    if (validator === undefined) throw new Error(`Schema ${file} is missing from the schemas given.`);
    validators.set(kind, validator);
  }
  return {
    maxItems(kind, field) {
      const schema = validators.get(kind)?.schema as { properties?: Record<string, { maxItems?: unknown }> } | undefined;
      const max = schema?.properties?.[field]?.maxItems;
      return typeof max === 'number' ? max : undefined;
    },
    validate(kind, body) {
      const validator = validators.get(kind);
      if (validator === undefined) throw new Error(`No schema for body kind ${kind}.`);
      if (validator(body)) return [];
      return toProblems(validator.errors ?? [], definitionNames);
    },
  };
}

/** One problem per location: the first error ajv reports there (later ones repeat it). */
function toProblems(errors: readonly ErrorObject[], definitionNames: WeakMap<object, string>): ProblemDetail[] {
  const problems: ProblemDetail[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const problem = toProblem(error, definitionNames);
    if (problem === undefined || seen.has(problem.path)) continue;
    seen.add(problem.path);
    problems.push(problem);
  }
  return problems;
}

const messageByDefinition: Readonly<Record<string, string>> = {
  uuid: 'must be a UUID such as 3f2b8c1e-7d4a-4e55-9a0b-1c2d3e4f5a6b',
  date: 'must be a real calendar date in the form YYYY-MM-DD',
  timestamp: 'must be an ISO 8601 date-time with seconds and a UTC offset (Z or +hh:mm), e.g. 2026-03-01T12:30:00+09:00',
  timestampOrNull: 'must be null or an ISO 8601 date-time with seconds and a UTC offset (Z or +hh:mm)',
  decimal: 'must be a decimal number in a JSON string, e.g. "1.5"',
  amount: 'must be a decimal amount in a JSON string of at most 14 integer digits, e.g. "12.50"',
  quantity: 'must be a decimal quantity in a JSON string of at most 12 integer digits and 6 decimal places, e.g. "2" or "0.125"',
  currency: 'must be a three-letter ISO 4217 currency code',
  identifier:
    'must be 1 to 128 characters without control, line-separator, bidirectional or invisible characters, and without whitespace at either end',
  identifierOrNull:
    'must be null or 1 to 128 characters without control, line-separator, bidirectional or invisible characters, and without whitespace at either end',
  code: 'must be a code of capital letters, digits and underscores, up to 50 characters',
  shortText: 'must be 1 to 50 characters without control characters',
  shortTextOrNull: 'must be null or 1 to 50 characters without control characters',
  text: 'must be 1 to 500 characters without control characters',
  localizedValue: 'must be at most 500 characters without control characters',
  localeTag: 'must be a BCP 47 locale tag such as en-US',
  localizedText: 'must be an object with at least one locale tag key (e.g. en-US) and text values',
  positiveInteger: 'must be an integer from 1 to 9007199254740991',
  count: 'must be an integer from 0 to 9007199254740991',
};

const messageByField: Readonly<Record<string, string>> = {
  card_last4: 'must be exactly 4 digits',
  workday_start: 'must be a time HH:mm from 00:00 to 23:59',
  country_code: 'must be an ISO 3166-1 alpha-2 code of two capital letters',
  time_zone: 'must be an IANA time zone name, in its own letter case, such as Asia/Tokyo',
  payment_method_detail: 'must be 1 to 100 characters without control characters',
  parent_line_no: 'must be null or an integer from 1 to 9007199254740991',
};

const typeNames: Readonly<Record<string, string>> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/**
 * ajv's instance path, cut before the first token that came from the request and is not safe
 * to show (the keys of localized texts are the only such tokens the schemas descend into).
 */
function safeInstancePath(instancePath: string): string {
  if (instancePath === '') return '';
  let path = '';
  for (const token of instancePath.slice(1).split('/')) {
    if (!isDisplaySafeName(token)) break;
    path += '/' + token;
  }
  return path;
}

function toProblem(error: ErrorObject, definitionNames: WeakMap<object, string>): ProblemDetail | undefined {
  const at = safeInstancePath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { path: at + '/' + escapePointerToken(String(params.missingProperty)), message: 'is required' };
    case 'additionalProperties': {
      const name = String(params.additionalProperty);
      return isDisplaySafeName(name)
        ? { path: at + '/' + escapePointerToken(name), message: 'unknown field; fields not in the contract are rejected' }
        : { path: at, message: 'holds an unknown field whose name cannot be shown; fields not in the contract are rejected' };
    }
    case 'propertyNames':
      return undefined; // the nested error names the key and is reported instead
    case 'type': {
      // A value of a shared definition's wrong type (an amount sent as a JSON number, the commonest
      // slip) is told what the definition wants, not only which JSON type.
      const described = definitionMessage(error, definitionNames);
      if (described !== undefined) return { path: at, message: described };
      const wanted = String(params.type)
        .split(',')
        .map((name) => typeNames[name] ?? name);
      return { path: at, message: `must be ${wanted.join(' or ')}` };
    }
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map(String).join(', ');
      return { path: at, message: `must be one of: ${allowed}` };
    }
    case 'minItems':
      return { path: at, message: `must hold at least ${String(params.limit)} item(s)` };
    case 'maxItems':
      return { path: at, message: `must hold at most ${String(params.limit)} items` };
    case 'uniqueItems':
      return { path: at, message: 'must not hold the same value twice' };
    case 'minProperties':
    case 'maxProperties':
    case 'pattern':
    case 'format':
    case 'minLength':
    case 'maxLength':
    case 'minimum':
    case 'maximum': {
      if (error.propertyName !== undefined) {
        const key = error.propertyName;
        return {
          path: isDisplaySafeName(key) ? at + '/' + escapePointerToken(key) : at,
          message: isDisplaySafeName(key) ? 'key must be a BCP 47 locale tag such as en-US' : 'holds a key that is not a BCP 47 locale tag',
        };
      }
      return { path: at, message: definitionMessage(error, definitionNames) ?? describeConstraint(error, at) };
    }
    default:
      return { path: at, message: 'is invalid' };
  }
}

/** The message of the shared definition whose schema the error is about; undefined for any other schema. */
function definitionMessage(error: ErrorObject, definitionNames: WeakMap<object, string>): string | undefined {
  const definition = error.parentSchema === undefined ? undefined : definitionNames.get(error.parentSchema);
  return definition === undefined ? undefined : messageByDefinition[definition];
}

function describeConstraint(error: ErrorObject, at: string): string {
  const field = at.slice(at.lastIndexOf('/') + 1);
  const byField = messageByField[field];
  if (byField !== undefined) return byField;
  const limit = String((error.params as Record<string, unknown>).limit);
  switch (error.keyword) {
    case 'minLength':
      return `must be at least ${limit} character(s)`;
    case 'maxLength':
      return `must be at most ${limit} characters`;
    case 'minimum':
      return `must be at least ${limit}`;
    case 'maximum':
      return `must be at most ${limit}`;
    default:
      return 'has the wrong format';
  }
}
