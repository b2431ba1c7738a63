import { randomUUID } from 'node:crypto';
import type {
  BatchAcknowledgement,
  CurrentMapping,
  DailyCloseBody,
  MappingEntry,
  Product,
  ModifierGroup,
  ReconciliationResult,
  StandardTransactionTypeList,
  Store,
  TradeRecord,
  Webhook,
  WebhookBody,
  WebhookWithSecret,
} from './contractTypes.js';
import { storeDayOverLimit, type CountedBatch, type StoreDayLimits } from '../../../src/domain/validation/storeDayOverLimit.js';
import type { ApiError } from '../../../src/errors/ApiError.js';
import { bodyBreaksRules } from '../../../src/errors/bodyBreaksRules.js';
import { offlineRefusal, validatePayload } from './validatePayload.js';
import { bodyOverLimit, serviceMaxBodyBytes } from './bodyLimit.js';
import { canonicalJson } from './canonicalJson.js';
import { contentBatchId } from './contentBatchId.js';
import { PushDayError } from './PushDayError.js';
import { errorCodeOf, PosRequestError } from './PosRequestError.js';
import { splitIntoBatches } from './splitIntoBatches.js';

/** The daily close without what pushDay fills in itself (batch_id, batch_count). */
export type DailyCloseTotals = Omit<DailyCloseBody, 'batch_id' | 'batch_count'>;

export interface PosClientOptions {
  /** e.g. `https://pos.example.com/pos/v1` (no trailing slash needed). */
  readonly baseUrl: string;
  /** The partner's API key, sent as x-functions-key. */
  readonly apiKey: string;
  /** Records per /trade-records batch; default 500 (the service's limit). */
  readonly maxRecordsPerBatch?: number;
  /**
   * Bytes per /trade-records batch; default the service's body limit (5 MiB) less 64 KiB. Larger
   * than the limit, a batch is refused before anything is sent, as every body is.
   */
  readonly maxBodyBytes?: number;
  /**
   * What the service takes per store and business date: transactions summed over the day's batches,
   * and batches (the OpenAPI document's /trade-records states both). Given, `pushDay` refuses a day
   * past them before sending anything, as the service would refuse it halfway with 400
   * STORE_DAY_TOO_LARGE. Of the batches sent before a call only their number is known to the kit,
   * not their transactions. Not given, the service alone judges.
   */
  readonly storeDayLimits?: StoreDayLimits;
  /** Attempts per request before giving up; default 8. */
  readonly maxAttempts?: number;
  /** First backoff in ms, doubled per attempt with jitter, capped at maxDelayMs; default 500. */
  readonly baseDelayMs?: number;
  /** Longest backoff in ms; default 30,000. A `Retry-After` answer is waited out whole, up to a minute. */
  readonly maxDelayMs?: number;
  /** One attempt, from sending the request to reading the whole answer, in ms; default 120,000. Then it is retried. */
  readonly timeoutMs?: number;
  /** Replaceable for tests and proxies; default the global fetch. */
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** What `pushDay` needs to know of a day it has sent before (a correction after MISMATCHED). */
export interface PushDayOptions {
  /**
   * Batches already sent for this store and business date: this call numbers its batches from
   * `batchesSentBefore + 1`, and the close counts all of them (contract: batch_seq increases per
   * store and business date; batch_count is the day's number of batches). Default 0.
   */
  readonly batchesSentBefore?: number;
  /**
   * Starts a new series of batch_ids for the same content. Each batch's batch_id is derived from
   * its content, so the same day sent again is the same batches; give a new seed (any string not
   * used before for this day) only when the service must take batches as new ones: after a batch
   * ended FAILED (500 BATCH_FAILED keeps answering under its batch_id) and HQ asks for the rest of
   * the day. Send then only what was not acknowledged (see {@link PushDayError}), with
   * `batchesSentBefore`: acknowledged batches sent under new ids would be applied a second time.
   * Default: none.
   */
  readonly batchIdSeed?: string;
}

export interface DayResult {
  readonly batches: readonly BatchAcknowledgement[];
  readonly close: BatchAcknowledgement;
}

// Not the service's 500: it answers one (INTERNAL_ERROR, BATCH_FAILED) only when sending the same
// batch again cannot help. 502 and 504 come from a gateway on the way and say nothing about the
// batch; a 500 without the service's error body comes from the Functions host (see `isRetryable`).
const retryableStatuses = new Set([408, 429, 502, 503, 504]);

/** The longest `Retry-After` waited out: the rate limit's window, the longest the service asks for. */
const maxRetryAfterMs = 60_000;

/**
 * A reference client of the partner API. Every push has a batch_id chosen once and reused on every
 * retry, so a batch is applied once however often it is sent; 408, 429, 502, 503, 504, network
 * failures, attempts that time out and the Functions host's bodyless 500 (the function failed or
 * ran out of time; the batch may be pending) are retried with exponential backoff, honouring
 * Retry-After. The service's own 500 is final: the batch ended FAILED (BATCH_FAILED) or the request
 * cannot succeed unchanged (INTERNAL_ERROR).
 */
export class PosClient {
  private readonly baseUrl: string;
  private readonly maxRecords: number;
  private readonly maxBytes: number;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly timeoutMs: number;
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: PosClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.maxRecords = options.maxRecordsPerBatch ?? 500;
    this.maxBytes = options.maxBodyBytes ?? serviceMaxBodyBytes - 64 * 1024;
    this.maxAttempts = options.maxAttempts ?? 8;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.fetch = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Sends one store-day: the records in batches within the record and byte limits, numbered by
   * batch_seq from 1 (or after the day's earlier batches, see {@link PushDayOptions}), each
   * acknowledged before the next is sent; then the daily close with the batch count filled in, only
   * once every batch was acknowledged. Every batch and the close are first checked with the service's
   * own rules, the records and the close against one currency (the service holds both to the
   * store's) and the day against its store-day limits, when given, so a day that would be refused
   * halfway is refused before anything is sent. Each batch_id is derived from its batch's content:
   * when a call stops partway (the network gave up, the process ended), the same call again (the
   * same records, close, options and batch limits) sends the same batches, and the service answers
   * the ones it already applied ALREADY_RECEIVED. Once a batch has left, a failure is thrown as a
   * {@link PushDayError}, which says how many batches were acknowledged.
   */
  async pushDay(records: readonly TradeRecord[], close: DailyCloseTotals, options: PushDayOptions = {}): Promise<DayResult> {
    const before = options.batchesSentBefore ?? 0;
    if (!Number.isInteger(before) || before < 0) throw new RangeError('batchesSentBefore must be a whole number, 0 or more.');
    refuseRepeatedIds(records);
    const seed = options.batchIdSeed ?? '';
    const batches = splitIntoBatches(records, this.maxRecords, this.maxBytes, close.store_id, close.business_date, before + 1, seed);
    const closeBody = dailyCloseBody(close, before + batches.length, (body) => contentBatchId('daily-close', body, seed));
    const checked = batches.map((batch) => checkedOffline('trade-records', batch));
    if (this.options.storeDayLimits) refuseOverDayLimits(batches, before, this.options.storeDayLimits);
    const checkedClose = checkedOffline('daily-close', closeBody);
    refuseMixedCurrencies(batches, closeBody);
    const acks: BatchAcknowledgement[] = [];
    try {
      for (const batch of checked) acks.push(await this.request('POST', '/trade-records', batch.text, batch.batchId));
      return { batches: acks, close: await this.request('POST', '/daily-close', checkedClose.text, checkedClose.batchId) };
    } catch (error) {
      // Part of the day may be applied: the caller needs to know how far it got, not only why it stopped.
      const delivered = batches.slice(0, acks.length).reduce((count, batch) => count + batch.trade_records.length, 0);
      throw new PushDayError(acks, batches.length, delivered, error);
    }
  }

  /**
   * Sends the daily close alone, with a new batch_id, counting `batchCount` batches for the day: a
   * close sent again after a transaction moved to another business date, or after corrections sent
   * by other means. Random, not derived from the content as pushDay's: this is the explicit resend
   * (contract: each close sent again has a new batch_id, and the last one counts), so a close the
   * service received before, e.g. one that a later close replaced, counts again.
   */
  async sendDailyClose(close: DailyCloseTotals, batchCount: number): Promise<BatchAcknowledgement> {
    if (!Number.isInteger(batchCount) || batchCount < 0) throw new RangeError('batchCount must be a whole number, 0 or more.');
    const body = dailyCloseBody(close, batchCount, () => randomUUID());
    const checked = checkedOffline('daily-close', body);
    return this.request('POST', '/daily-close', checked.text, checked.batchId);
  }

  /**
   * Reads the reconciliation result until it is MATCHED or MISMATCHED (reconciliation starts about
   * 15 minutes after the daily close), waiting `intervalMs` between reads, at most `timeoutMs`.
   */
  async waitForReconciliation(
    storeId: string,
    businessDate: string,
    options: { intervalMs?: number; timeoutMs?: number } = {},
  ): Promise<ReconciliationResult> {
    const deadline = Date.now() + (options.timeoutMs ?? 45 * 60_000);
    for (;;) {
      const result = await this.reconciliation(storeId, businessDate);
      if (result.status === 'MATCHED' || result.status === 'MISMATCHED' || Date.now() >= deadline) return result;
      await this.sleep(options.intervalMs ?? 60_000);
    }
  }

  reconciliation(storeId: string, businessDate: string): Promise<ReconciliationResult> {
    return this.request('GET', `/daily-close/${encodeURIComponent(storeId)}/${encodeURIComponent(businessDate)}`);
  }

  // The uploads keep a random batch_id: each is one request (retried under its id), sent again
  // whole it is only upserted again, and a mapping or store set back to what it was before must be
  // applied again, which an id derived from the content would answer ALREADY_RECEIVED. A body over
  // the service's limit is refused before it is sent (PosRequestError, 413 PAYLOAD_TOO_LARGE, `sent`
  // false): split stores or products over several uploads; a mapping is one upload, whole.
  uploadStores(stores: readonly Store[]): Promise<BatchAcknowledgement> {
    return this.send('PUT', '/stores', { batch_id: randomUUID(), stores });
  }

  uploadProducts(products: readonly Product[], modifierGroups?: readonly ModifierGroup[]): Promise<BatchAcknowledgement> {
    return this.send('PUT', '/products', {
      batch_id: randomUUID(),
      products,
      ...(modifierGroups ? { modifier_groups: modifierGroups } : {}),
    });
  }

  /** HQ's standard transaction types, the codes a mapping maps to (contract §4.9): the first step of going live. */
  standardTransactionTypes(): Promise<StandardTransactionTypeList> {
    return this.request('GET', '/reference/transaction-types');
  }

  /** The mapping in effect (`batch_id` null and no entries before the first upload). */
  mapping(): Promise<CurrentMapping> {
    return this.request('GET', '/mappings/transaction-types');
  }

  /** Replaces the whole mapping: send every entry, not only the new ones. */
  uploadMapping(mappings: readonly MappingEntry[]): Promise<BatchAcknowledgement> {
    return this.send('PUT', '/mappings/transaction-types', { batch_id: randomUUID(), mappings });
  }

  /**
   * Registers the partner's one webhook endpoint, replacing any earlier one. The first
   * registration's answer holds the signing secret (`secret`), shown only this once: store it.
   * Sent once, never retried: a retry after a lost answer would be answered without the secret.
   * When this throws without an answer, {@link webhook} tells whether it was registered, and
   * {@link rotateWebhookSecret} gives a secret.
   */
  registerWebhook(endpoint: WebhookBody): Promise<Webhook | WebhookWithSecret> {
    return this.request('PUT', '/webhook', JSON.stringify(endpoint), undefined, 1);
  }

  /** The registered endpoint (never its secret), or undefined when there is none. */
  async webhook(): Promise<Webhook | undefined> {
    try {
      return await this.request<Webhook>('GET', '/webhook');
    } catch (error) {
      if (error instanceof PosRequestError && errorCodeOf(error.body) === 'WEBHOOK_NOT_FOUND') return undefined;
      throw error;
    }
  }

  /** Removes the endpoint; events not yet delivered are dropped. Done too when there was none. */
  async removeWebhook(): Promise<void> {
    try {
      await this.request('DELETE', '/webhook');
    } catch (error) {
      // A retry after a lost answer finds the endpoint already removed.
      if (!(error instanceof PosRequestError && errorCodeOf(error.body) === 'WEBHOOK_NOT_FOUND')) throw error;
    }
  }

  /**
   * A new signing secret, answered this once; the previous one keeps signing beside it for 24 hours.
   * Sent once, never retried: a second rotation within those hours drops the first new secret.
   */
  rotateWebhookSecret(): Promise<WebhookWithSecret> {
    return this.request('POST', '/webhook/rotate-secret', undefined, undefined, 1);
  }

  private async send(
    method: string,
    path: string,
    body: Readonly<Record<string, unknown>> & { batch_id: string },
  ): Promise<BatchAcknowledgement> {
    // Serialised once: every retry sends the very same bytes under the same batch_id.
    const text = JSON.stringify(body);
    // Measured as the service measures it, in the UTF-8 bytes fetch sends: sent, it would only come back 413.
    const tooLarge = bodyOverLimit(Buffer.byteLength(text));
    if (tooLarge) throw refusedOffline(tooLarge, body.batch_id);
    return this.request(method, path, text, body.batch_id);
  }

  private async request<T>(method: string, path: string, body?: string, batchId?: string, maxAttempts = this.maxAttempts): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      // Covers reading the answer too: a stalled body is cut off and retried like a dropped one.
      const signal = AbortSignal.timeout(this.timeoutMs);
      try {
        response = await this.fetch(this.baseUrl + path, {
          method,
          headers: { 'x-functions-key': this.options.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body }),
          // A redirect would carry the key (a header of its own, not Authorization) to wherever it
          // points, another host or plain http included: it is answered as a refusal instead.
          redirect: 'manual',
          signal,
        });
      } catch (error) {
        // No answer (connection refused, reset, dropped, timed out): the batch may or may not have
        // arrived; sending it again with the same batch_id is safe either way.
        if (attempt >= maxAttempts) throw error;
        await this.sleep(this.backoff(attempt));
        continue;
      }
      const text = await response.text().catch(() => undefined);
      if (text === undefined) {
        if (attempt >= maxAttempts) throw new Error(`The response to ${method} ${path} was cut off.`);
        await this.sleep(this.backoff(attempt));
        continue;
      }
      // A refusal may come from a gateway on the way, as an HTML page: only the service's own
      // answers are JSON, and a body that is not stays undefined rather than ending the retries.
      const parsed = parseJsonOrUndefined(text);
      if (response.ok) {
        if (parsed === undefined && text !== '') throw new Error(`The answer to ${method} ${path} is not JSON.`);
        return parsed as T;
      }
      if (!isRetryable(response.status, parsed) || attempt >= maxAttempts) throw new PosRequestError(response.status, parsed, batchId);
      await this.sleep(this.retryDelay(response, attempt));
    }
  }

  private retryDelay(response: Response, attempt: number): number {
    const header = response.headers.get('retry-after');
    const seconds = header === null ? NaN : Number(header);
    return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, maxRetryAfterMs) : this.backoff(attempt);
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

/**
 * Whether an answer is worth the same request again. The Functions host answers a function that
 * failed or outlived its time limit with a 500 of its own, without the service's error body: the
 * batch may be pending, and the same bytes under the same batch_id finish it.
 */
function isRetryable(status: number, body: unknown): boolean {
  return retryableStatuses.has(status) || (status === 500 && errorCodeOf(body) === undefined);
}

/** The close as sent: the caller's totals with a batch_id of its own and the day's batch count (never the caller's). */
function dailyCloseBody(
  close: DailyCloseTotals,
  batchCount: number,
  batchIdOf: (body: Omit<DailyCloseBody, 'batch_id'>) => string,
): DailyCloseBody {
  // Whatever batch_id the totals may carry is left out, from the body and from what its id is derived from.
  const { batch_id: _callers, ...totals } = close as DailyCloseTotals & { batch_id?: unknown };
  const body = { ...totals, batch_count: batchCount };
  return { ...body, batch_id: batchIdOf(body) };
}

/**
 * A body serialised once, as it will be sent, after the service's own rules found nothing to refuse
 * in it offline; throws that refusal otherwise, so nothing of the day is sent. Canonical bytes: the
 * same content is the same bytes in every call, as the service compares a repeated batch_id's bytes.
 */
function checkedOffline(endpoint: 'trade-records' | 'daily-close', body: { batch_id: string }): { text: string; batchId: string } {
  const text = canonicalJson(body);
  const outcome = validatePayload(endpoint, Buffer.from(text));
  if (!outcome.ok) throw new PosRequestError(outcome.status, outcome.body, body.batch_id, false);
  return { text, batchId: body.batch_id };
}

/**
 * Counts the day as the service will, batch after batch: first the batches sent before this call
 * (their transactions unknown here), then each of this call's. Throws the service's own
 * STORE_DAY_TOO_LARGE for the first batch it would refuse, so nothing of the day is sent.
 */
function refuseOverDayLimits(batches: ReturnType<typeof splitIntoBatches>, sentBefore: number, limits: StoreDayLimits): void {
  const day: CountedBatch[] = Array.from({ length: sentBefore }, (_, i) => ({ batchId: `sent-before-${i + 1}`, recordCount: 0 }));
  for (const batch of batches) {
    const counted = { batchId: batch.batch_id, recordCount: batch.trade_records.length };
    const over = storeDayOverLimit(counted, day, limits);
    if (over) throw refusedOffline(over, batch.batch_id);
    day.push(counted);
  }
}

/**
 * The service checks each record's and the close's currency against the store master's (contract:
 * a store's currency is that of its transactions and its daily close), body by body: a day whose
 * records and close do not share one currency has a body the service refuses once the store is
 * uploaded, often only after the batches before it were applied (records in the store's currency,
 * the close in another: at the close). Throws that refusal for the first such body, so nothing of
 * the day is sent; the close's currency is the day's, unless every record holds another one. Not
 * even a store never uploaded (which the service lets through with STORE_NOT_UPLOADED warnings)
 * can have such a day: its first upload would make one side wrong. The codes named were checked as
 * ISO 4217 codes by then, so they quote nothing of the caller's data but a currency.
 */
function refuseMixedCurrencies(batches: ReturnType<typeof splitIntoBatches>, close: DailyCloseBody): void {
  const currencies = new Set(batches.flatMap((batch) => batch.trade_records.map((record) => record.currency)));
  const [recordsCurrency] = currencies;
  if (currencies.size === 1 && recordsCurrency !== undefined && recordsCurrency !== close.currency) {
    throw refusedOffline(
      bodyBreaksRules([
        {
          path: '/currency',
          message: `must equal the currency of the day's trade records (${recordsCurrency}), as both must equal the store's`,
        },
      ]),
      close.batch_id,
    );
  }
  for (const batch of batches) {
    const problems = batch.trade_records.flatMap((record, index) =>
      record.currency === close.currency
        ? []
        : [
            {
              path: `/trade_records/${index}/currency`,
              message: `must equal the currency of the day's daily close (${close.currency}), as both must equal the store's`,
            },
          ],
    );
    if (problems.length > 0) throw refusedOffline(bodyBreaksRules(problems), batch.batch_id);
  }
}

/** The service's answer to the body `batchId` names, found before anything was sent (`sent` false). */
function refusedOffline(error: ApiError, batchId: string): PosRequestError {
  const { status, body } = offlineRefusal(error);
  return new PosRequestError(status, body, batchId, false);
}

/**
 * A transaction sent twice in one day's records would be refused within a batch, or counted by
 * the version rule across two: either way the day is not what the POS meant to send.
 */
function refuseRepeatedIds(records: readonly TradeRecord[]): void {
  const seen = new Set<string>();
  for (const record of records) {
    if (seen.has(record.trade_record_id)) {
      throw new RangeError(
        `trade_record_id ${record.trade_record_id} is in the records more than once: send each transaction once, in its latest version.`,
      );
    }
    seen.add(record.trade_record_id);
  }
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
