import { randomUUID } from 'node:crypto';
import type {
  BatchAcknowledgement,
  DailyCloseBody,
  MappingEntry,
  Product,
  ModifierGroup,
  ReconciliationResult,
  Store,
  TradeRecord,
} from './contractTypes.js';

/** The daily close without what pushDay fills in itself (batch_id, batch_count). */
export type DailyCloseTotals = Omit<DailyCloseBody, 'batch_id' | 'batch_count'>;

export interface PosClientOptions {
  /** e.g. `https://pos.example.com/pos/v1` (no trailing slash needed). */
  readonly baseUrl: string;
  /** The partner's API key, sent as x-functions-key. */
  readonly apiKey: string;
  /** Records per /trade-records batch; default 500 (the service's limit). */
  readonly maxRecordsPerBatch?: number;
  /** Bytes per request body; default 5 MiB less a margin (the service's limit is 5 MiB). */
  readonly maxBodyBytes?: number;
  /** Attempts per request before giving up; default 8. */
  readonly maxAttempts?: number;
  /** First backoff in ms, doubled per attempt with jitter, capped at maxDelayMs; default 500. */
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** Replaceable for tests and proxies; default the global fetch. */
  readonly fetch?: typeof fetch;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** A refusal the client does not retry: the body must be fixed (400, 403, 413, 415) or the key (401). */
export class PosRequestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly batchId?: string,
  ) {
    const code = (body as { error?: { code?: unknown } } | undefined)?.error?.code;
    // A missing or unknown key is answered 401 with no body (as the Functions host does).
    const hint = status === 401 && code === undefined ? ': check the API key sent as x-functions-key' : '';
    super(
      `The service refused the request: ${status}${typeof code === 'string' ? ` ${code}` : ''}${hint}${batchId ? ` (batch_id ${batchId})` : ''}`,
    );
    this.name = 'PosRequestError';
  }
}

export interface DayResult {
  readonly batches: readonly BatchAcknowledgement[];
  readonly close: BatchAcknowledgement;
}

// Not 500: the service answers it (INTERNAL_ERROR, BATCH_FAILED) only when sending the same batch
// again cannot help; 502 and 504 come from a gateway on the way and say nothing about the batch.
const retryableStatuses = new Set([408, 429, 502, 503, 504]);

/**
 * A reference client of the partner API. Every push has a batch_id chosen once and reused on every
 * retry, so a batch is applied once however often it is sent; 408, 429, 502, 503, 504 and network
 * failures are retried with exponential backoff, honouring Retry-After. A 500 is final: the batch
 * ended FAILED (BATCH_FAILED) or the request cannot succeed unchanged (INTERNAL_ERROR).
 */
export class PosClient {
  private readonly baseUrl: string;
  private readonly maxRecords: number;
  private readonly maxBytes: number;
  private readonly maxAttempts: number;
  private readonly baseDelayMs: number;
  private readonly maxDelayMs: number;
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly options: PosClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.maxRecords = options.maxRecordsPerBatch ?? 500;
    this.maxBytes = options.maxBodyBytes ?? 5 * 1024 * 1024 - 64 * 1024;
    this.maxAttempts = options.maxAttempts ?? 8;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
    this.fetch = options.fetch ?? fetch;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * Sends one store-day: the records in batches within the record and byte limits, numbered by
   * batch_seq from 1, each acknowledged before the next is sent; then the daily close with the
   * batch count filled in, only once every batch was acknowledged.
   */
  async pushDay(records: readonly TradeRecord[], close: DailyCloseTotals): Promise<DayResult> {
    const batches = splitIntoBatches(records, this.maxRecords, this.maxBytes, close.store_id, close.business_date);
    const acks: BatchAcknowledgement[] = [];
    for (const batch of batches) acks.push(await this.send('POST', '/trade-records', batch));
    const closeAck = await this.send('POST', '/daily-close', { batch_id: randomUUID(), batch_count: batches.length, ...close });
    return { batches: acks, close: closeAck };
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

  /** Replaces the whole mapping: send every entry, not only the new ones. */
  uploadMapping(mappings: readonly MappingEntry[]): Promise<BatchAcknowledgement> {
    return this.send('PUT', '/mappings/transaction-types', { batch_id: randomUUID(), mappings });
  }

  private send(
    method: string,
    path: string,
    body: Readonly<Record<string, unknown>> & { batch_id: string },
  ): Promise<BatchAcknowledgement> {
    // Serialised once: every retry sends the very same bytes under the same batch_id.
    return this.request(method, path, JSON.stringify(body), body.batch_id);
  }

  private async request<T>(method: string, path: string, body?: string, batchId?: string): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        response = await this.fetch(this.baseUrl + path, {
          method,
          headers: { 'x-functions-key': this.options.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body }),
        });
      } catch (error) {
        // No answer (connection refused, reset, dropped): the batch may or may not have arrived;
        // sending it again with the same batch_id is safe either way.
        if (attempt >= this.maxAttempts) throw error;
        await this.sleep(this.backoff(attempt));
        continue;
      }
      const text = await response.text().catch(() => undefined);
      if (text === undefined) {
        if (attempt >= this.maxAttempts) throw new Error(`The response to ${method} ${path} was cut off.`);
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
      if (!retryableStatuses.has(response.status) || attempt >= this.maxAttempts)
        throw new PosRequestError(response.status, parsed, batchId);
      await this.sleep(this.retryDelay(response, attempt));
    }
  }

  private retryDelay(response: Response, attempt: number): number {
    const header = response.headers.get('retry-after');
    const seconds = header === null ? NaN : Number(header);
    return Number.isFinite(seconds) && seconds >= 0 ? Math.min(seconds * 1000, this.maxDelayMs) : this.backoff(attempt);
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1));
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/**
 * Splits a day's records into /trade-records bodies of at most `maxRecords` records and
 * `maxBytes` bytes each, numbered by batch_seq from 1, each with its own batch_id.
 */
export function splitIntoBatches(
  records: readonly TradeRecord[],
  maxRecords: number,
  maxBytes: number,
  storeId: string,
  businessDate: string,
): { batch_id: string; store_id: string; business_date: string; batch_seq: number; trade_records: TradeRecord[] }[] {
  // The envelope around the records, with room for the largest batch_seq.
  const envelope = Buffer.byteLength(
    JSON.stringify({ batch_id: randomUUID(), store_id: storeId, business_date: businessDate, batch_seq: 1e9, trade_records: [] }),
  );
  const batches: TradeRecord[][] = [];
  let current: TradeRecord[] = [];
  let bytes = envelope;
  for (const record of records) {
    const size = Buffer.byteLength(JSON.stringify(record)) + 1;
    if (envelope + size > maxBytes) throw new Error(`Record ${record.trade_record_id} alone is larger than ${maxBytes} bytes.`);
    if (current.length >= maxRecords || bytes + size > maxBytes) {
      batches.push(current);
      current = [];
      bytes = envelope;
    }
    current.push(record);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches.map((trade_records, index) => ({
    batch_id: randomUUID(),
    store_id: storeId,
    business_date: businessDate,
    batch_seq: index + 1,
    trade_records,
  }));
}
