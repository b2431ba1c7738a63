/**
 * Typed readers of response bodies. `call()` hands back the parsed body as `unknown`; a test reads
 * it through the reader of what the endpoint answers, which checks the shape first and fails with
 * the status and body when it is something else (e.g. an error where an acknowledgement was
 * expected).
 */
import type { ControlTotals } from '../../src/domain/reconciliation/ControlTotals.js';
import type { Diagnosis } from '../../src/domain/reconciliation/diagnose.js';
import type { StandardTransactionTypeList } from '../../src/domain/reference/standardTransactionTypes.js';
import type { ErrorBody } from '../../src/http/toErrorResponse.js';
import type { CurrentMappingBody } from '../../src/services/MappingQuery.js';
import type { BatchAcknowledgement } from '../../src/services/push/BatchAcknowledgement.js';
import type { ReconciliationResultBody } from '../../src/services/ReconciliationQuery.js';

/** What `call()` answers: the status, the parsed JSON body (the text when not JSON) and the headers. */
export interface TestResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Headers;
}

export type ErrorDetail = ErrorBody['error'];

/** Reads a fetch() response: the body is parsed as JSON when it is JSON, kept as text otherwise. */
export async function readResponse(response: Response): Promise<TestResponse> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, body, headers: response.headers };
}

/** A reconciliation result whose diagnosis is read as the domain computes it. */
export type ReconciliationResult = Omit<ReconciliationResultBody, 'diagnosis'> & { readonly diagnosis: Diagnosis | null };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unexpected(what: string, response: TestResponse): Error {
  return new Error(`Expected ${what}, got ${response.status} ${JSON.stringify(response.body ?? null).slice(0, 600)}`);
}

/** The body of a push answer (202 ACCEPTED or 200 ALREADY_RECEIVED). */
export function ackOf(response: TestResponse): BatchAcknowledgement {
  const body = response.body;
  if (
    isRecord(body) &&
    typeof body.batch_id === 'string' &&
    (body.status === 'ACCEPTED' || body.status === 'ALREADY_RECEIVED') &&
    typeof body.record_count === 'number' &&
    Array.isArray(body.warnings)
  ) {
    return body as unknown as BatchAcknowledgement;
  }
  throw unexpected('a batch acknowledgement', response);
}

/** The `error` member of an error answer. */
export function errorOf(response: TestResponse): ErrorDetail {
  const body = response.body;
  if (isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string' && typeof body.error.message === 'string') {
    return body.error as unknown as ErrorDetail;
  }
  throw unexpected('an error body', response);
}

/** The error code of an answer; undefined when it is not an error body (for tests that collect mismatches). */
export function errorCodeOf(response: TestResponse): string | undefined {
  const body = response.body;
  return isRecord(body) && isRecord(body.error) && typeof body.error.code === 'string' ? body.error.code : undefined;
}

/** The paths of an error answer's details, in order. */
export function errorPaths(response: TestResponse): string[] {
  return (errorOf(response).details ?? []).map((detail) => detail.path);
}

/** The body of GET /daily-close/{store_id}/{business_date}. */
export function reconciliationOf(response: TestResponse): ReconciliationResult {
  const body = response.body;
  if (isRecord(body) && typeof body.store_id === 'string' && typeof body.business_date === 'string' && typeof body.status === 'string') {
    return body as unknown as ReconciliationResult;
  }
  throw unexpected('a reconciliation result', response);
}

/** A reconciliation that ran: checked, with both sets of totals and a diagnosis. */
export type FinishedReconciliation = ReconciliationResult & {
  readonly status: 'MATCHED' | 'MISMATCHED';
  readonly checked_at: string;
  readonly expected: ControlTotals;
  readonly actual: ControlTotals;
  readonly diagnosis: Diagnosis;
};

/** The result as a finished reconciliation; fails when the day has not been reconciled. */
export function finishedReconciliation(result: ReconciliationResult): FinishedReconciliation {
  const finished = result.status === 'MATCHED' || result.status === 'MISMATCHED';
  if (finished && result.checked_at !== null && result.expected !== null && result.actual !== null && result.diagnosis !== null) {
    return result as FinishedReconciliation;
  }
  throw new Error(`Expected a finished reconciliation, got ${JSON.stringify(result).slice(0, 600)}`);
}

/** The body of GET /mappings/transaction-types. */
export function mappingOf(response: TestResponse): CurrentMappingBody {
  const body = response.body;
  if (isRecord(body) && typeof body.partner_id === 'string' && Array.isArray(body.mappings)) {
    return body as unknown as CurrentMappingBody;
  }
  throw unexpected('the current mapping', response);
}

/** The body of GET /reference/transaction-types. */
export function referenceListOf(response: TestResponse): StandardTransactionTypeList {
  const body = response.body;
  if (isRecord(body) && typeof body.version === 'string' && Array.isArray(body.data)) {
    return body as unknown as StandardTransactionTypeList;
  }
  throw unexpected('the standard transaction type list', response);
}

/** A webhook as GET /webhook shows it, with the secret when the answer carries one (first PUT, rotation). */
export interface WebhookView {
  readonly url: string;
  readonly event_types: string[];
  readonly created_at: string;
  readonly updated_at: string;
  readonly previous_secret_expires_at: string | null;
  readonly disabled_at: string | null;
  readonly secret?: string;
}

export function webhookOf(response: TestResponse): WebhookView {
  const body = response.body;
  if (isRecord(body) && typeof body.url === 'string' && Array.isArray(body.event_types) && typeof body.created_at === 'string') {
    return body as unknown as WebhookView;
  }
  throw unexpected('a webhook', response);
}
