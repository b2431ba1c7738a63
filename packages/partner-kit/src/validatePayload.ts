/**
 * Offline validation of a push body with the service's own code: the same body limit, JSON parser,
 * compiled schemas and semantic rules, in the same order as the service's push pipeline, so the
 * answer carries the same error code, JSON Pointer paths and messages the service would send (the
 * 413's message names the body's size as well), and the same AMOUNT_MISMATCH warnings. What needs
 * HQ's data (store registration, the store master's currency unless given, the mapping, known
 * products, the size of the stored rows) is left to the service.
 */
import type { BatchKind } from '../../../src/domain/model/BatchKind.js';
import type { DailyClose, MappingBatch, ProductBatch, StoreBatch, TradeRecordBatch } from '../../../src/domain/model/payloads.js';
import type { Warning } from '../../../src/domain/model/Warning.js';
import { standardTransactionTypes } from '../../../src/domain/reference/standardTransactionTypes.js';
import { checkAmountIdentity } from '../../../src/domain/validation/checkAmountIdentity.js';
import { checkBusinessDate } from '../../../src/domain/validation/checkBusinessDate.js';
import { checkDailyClose } from '../../../src/domain/validation/checkDailyClose.js';
import { checkMappingBatch } from '../../../src/domain/validation/checkMappingBatch.js';
import { checkProductBatch } from '../../../src/domain/validation/checkProductBatch.js';
import { checkStoreBatch } from '../../../src/domain/validation/checkStoreBatch.js';
import { checkTradeRecordBatch } from '../../../src/domain/validation/checkTradeRecordBatch.js';
import { ApiError } from '../../../src/errors/ApiError.js';
import type { ProblemDetail } from '../../../src/errors/ProblemDetail.js';
import { bodyBreaksRules } from '../../../src/errors/bodyBreaksRules.js';
import { toErrorResponse } from '../../../src/http/toErrorResponse.js';
import { createBodyValidator, type BodyValidator } from '../../../src/bodyParsing/createBodyValidator.js';
import { parseJsonBody } from '../../../src/bodyParsing/parseJsonBody.js';
import { bodyOverLimit } from './bodyLimit.js';
import { contractSchemas } from './contractSchemas.js';
import type { ErrorBody } from './contractTypes.js';

/** The push endpoints, by the last part of their path. */
export const pushEndpoints = {
  'trade-records': { kind: 'tradeRecords', collection: 'trade_records' },
  'daily-close': { kind: 'dailyClose', collection: undefined },
  stores: { kind: 'stores', collection: 'stores' },
  products: { kind: 'products', collection: 'products' },
  mappings: { kind: 'mappings', collection: undefined },
} as const satisfies Record<string, { kind: BatchKind; collection: string | undefined }>;

export type PushEndpoint = keyof typeof pushEndpoints;

export function isPushEndpoint(name: string): name is PushEndpoint {
  return Object.hasOwn(pushEndpoints, name);
}

export interface ValidateOptions {
  /** Currency of the store master (trade-records, daily-close); checked only when given. */
  readonly storeCurrency?: string;
  /** The moment the business date window, and how far ahead a store's last_modified_at may lie, are reckoned from (default: now). */
  readonly now?: Date;
}

/** What the service would answer to the body, as far as it can be told offline. */
export type ValidationOutcome =
  | { readonly ok: true; readonly recordCount: number; readonly warnings: readonly Warning[] }
  | { readonly ok: false; readonly status: number; readonly body: ErrorBody };

const standardCodes: ReadonlySet<string> = new Set(standardTransactionTypes.data.map((t) => t.code));
let validator: BodyValidator | undefined;
const offlineRequestId = 'offline';

/**
 * Validates a push body as the service does before storing it: its raw bytes as they will be sent
 * (a file read as it is), or its JSON text, which is measured and read in the UTF-8 bytes that
 * fetch, like `PosClient`, sends for a string body. Throws a RangeError for an endpoint that is not
 * one of {@link pushEndpoints} and a TypeError for a body that is neither (e.g. the parsed object):
 * mistakes of the caller's, not answers the service would give.
 */
export function validatePayload(endpoint: PushEndpoint, body: Uint8Array | string, options: ValidateOptions = {}): ValidationOutcome {
  // The types keep TypeScript callers right; plain JavaScript callers get told what they passed,
  // not a 413 about "undefined bytes" or an error from inside the kit.
  const name: unknown = endpoint;
  if (typeof name !== 'string' || !isPushEndpoint(name)) {
    throw new RangeError(
      `Unknown endpoint ${typeof name === 'string' ? `"${name}"` : String(name)}: expected one of ${Object.keys(pushEndpoints).join(', ')}.`,
    );
  }
  const given: unknown = body;
  const bytes = typeof given === 'string' ? Buffer.from(given, 'utf8') : given;
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(
      `validatePayload takes the body as sent: its bytes (a Uint8Array or Buffer) or its JSON text (a string), not ${describeValue(given)}.`,
    );
  }
  try {
    return { ok: true, ...check(endpoint, bytes, options) };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { ok: false, ...offlineRefusal(error) };
  }
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (value instanceof ArrayBuffer) return 'an ArrayBuffer (wrap it: new Uint8Array(buffer))';
  return typeof value === 'object' ? 'an object (pass JSON.stringify of it, or the bytes read from its file)' : `a ${typeof value}`;
}

/** The service's answer to a refusal found offline; no request reached the service, so the body names none. */
export function offlineRefusal(error: ApiError): { readonly status: number; readonly body: ErrorBody } {
  const { response } = toErrorResponse(error, offlineRequestId);
  return { status: error.status, body: response.jsonBody as ErrorBody };
}

function check(endpoint: PushEndpoint, bytes: Uint8Array, options: ValidateOptions): { recordCount: number; warnings: Warning[] } {
  const { kind, collection } = pushEndpoints[endpoint];
  // The service stops reading a body at its limit: nothing in one over it is looked at.
  const tooLarge = bodyOverLimit(bytes.byteLength);
  if (tooLarge) throw tooLarge;
  const parsed = parseJsonBody(bytes);
  if (!parsed.ok) throw new ApiError('INVALID_PAYLOAD', 'The body is not acceptable JSON.', parsed.problems);
  const body = parsed.value as Record<string, unknown>;
  validator ??= createBodyValidator(contractSchemas);
  if (collection !== undefined) {
    const records = body[collection];
    const max = validator.maxItems(kind, collection);
    if (Array.isArray(records) && max !== undefined && records.length > max) {
      throw new ApiError('BATCH_TOO_LARGE', `${collection} holds ${records.length} entries; at most ${max} are allowed per batch.`);
    }
  }
  const schemaProblems = validator.validate(kind, body);
  if (schemaProblems.length > 0) throw new ApiError('INVALID_PAYLOAD', 'The body does not match the schema.', schemaProblems);
  const { problems, unknownStandardCodes, recordCount, warnings } = semantics(kind, body, options);
  if (problems.length > 0) throw bodyBreaksRules(problems);
  if (unknownStandardCodes.length > 0) throw new ApiError('UNKNOWN_STANDARD_CODE', undefined, unknownStandardCodes);
  return { recordCount, warnings };
}

interface Semantics {
  problems: readonly ProblemDetail[];
  unknownStandardCodes: readonly ProblemDetail[];
  recordCount: number;
  warnings: Warning[];
}

function semantics(kind: BatchKind, body: unknown, options: ValidateOptions): Semantics {
  const none: readonly ProblemDetail[] = [];
  switch (kind) {
    case 'tradeRecords': {
      const batch = body as TradeRecordBatch;
      const warnings = batch.trade_records.flatMap((record, index) => checkAmountIdentity(record, index) ?? []);
      return {
        problems: withDateWindow(batch.business_date, options, checkTradeRecordBatch(batch, options.storeCurrency)),
        unknownStandardCodes: none,
        recordCount: batch.trade_records.length,
        warnings,
      };
    }
    case 'dailyClose':
      return {
        problems: withDateWindow((body as DailyClose).business_date, options, checkDailyClose(body as DailyClose, options.storeCurrency)),
        unknownStandardCodes: none,
        recordCount: 1,
        warnings: [],
      };
    case 'stores':
      return {
        problems: checkStoreBatch(body as StoreBatch, options.now ?? new Date()),
        unknownStandardCodes: none,
        recordCount: (body as StoreBatch).stores.length,
        warnings: [],
      };
    case 'products':
      return {
        problems: checkProductBatch(body as ProductBatch),
        unknownStandardCodes: none,
        recordCount: (body as ProductBatch).products.length,
        warnings: [],
      };
    case 'mappings': {
      const checked = checkMappingBatch(body as MappingBatch, standardCodes);
      return {
        problems: checked.problems,
        unknownStandardCodes: checked.unknownStandardCodes,
        recordCount: (body as MappingBatch).mappings.length,
        warnings: [],
      };
    }
  }
}

/** The service puts a business date outside its window first among the problems. */
function withDateWindow(businessDate: string, options: ValidateOptions, problems: ProblemDetail[]): ProblemDetail[] {
  const outOfWindow = checkBusinessDate(businessDate, options.now ?? new Date(), '/business_date');
  return outOfWindow ? [outOfWindow, ...problems] : problems;
}
