import {
  RestError,
  createHttpHeaders,
  type PipelinePolicy,
  type PipelineRequest,
  type PipelineResponse,
  type SendRequest,
} from '@azure/core-rest-pipeline';

export type StorageService = 'table' | 'blob' | 'queue';

/** A simulated process crash: not a storage error, so no SDK retries it and nothing catches it as one. */
export class SimulatedCrash extends Error {
  constructor(where: string) {
    super(`simulated crash (${where})`);
    this.name = 'SimulatedCrash';
  }
}

export interface RandomFaults {
  /** Share of requests that fail (0..1). */
  readonly rate: number;
  readonly random: () => number;
}

/**
 * A pipeline policy that sits in every storage client (tables, blobs, queues) and can
 * - count requests per service and table transactions (`$batch`),
 * - crash the n-th table transaction (or the commit of the ledger, or the blob put) of a push,
 * - fail a seeded share of requests with 500 / 503 / a timeout, before or after the request
 *   reached storage (a lost response).
 */
export class FaultPolicy implements PipelinePolicy {
  readonly name = 'reliability-fault-policy';
  readonly counts: Record<StorageService, number> = { table: 0, blob: 0, queue: 0 };
  tableTransactions = 0;
  injected = 0;
  /** When set, the table transaction with this 0-based number (counted from arming) crashes. */
  private crashTransactionAt: number | undefined;
  private transactionsSinceArmed = 0;
  /** Crash on the next request that `crashWhen` matches; `afterSend` lets it reach storage first. */
  private crashWhen: ((request: PipelineRequest) => boolean) | undefined;
  private crashAfterSend = false;
  /** Restricts random faults to requests this matches (all when undefined). */
  randomFaults: RandomFaults | undefined;
  /** Canned storage answers: the next `times` requests `when` matches get `status` without reaching storage. */
  private answers: { when: (request: PipelineRequest) => boolean; status: number; code: string; times: number }[] = [];

  armTransactionCrash(n: number): void {
    this.crashTransactionAt = n;
    this.transactionsSinceArmed = 0;
  }

  armCrash(when: (request: PipelineRequest) => boolean, afterSend = false): void {
    this.crashWhen = when;
    this.crashAfterSend = afterSend;
  }

  disarm(): void {
    this.crashTransactionAt = undefined;
    this.crashWhen = undefined;
    this.answers = [];
  }

  /** Storage answers the next `times` matching requests with `status` and error code `code` (never reaching storage). */
  answerWith(when: (request: PipelineRequest) => boolean, status: number, code: string, times = 1): void {
    this.answers.push({ when, status, code, times });
  }

  async sendRequest(request: PipelineRequest, next: SendRequest): Promise<PipelineResponse> {
    const service = serviceOf(request.url);
    this.counts[service] += 1;
    if (service === 'table' && isTableTransaction(request)) {
      this.tableTransactions += 1;
      if (this.crashTransactionAt !== undefined && this.transactionsSinceArmed++ === this.crashTransactionAt) {
        this.crashTransactionAt = undefined;
        throw new SimulatedCrash(`table transaction ${this.transactionsSinceArmed}`);
      }
    }
    const answer = this.answers.find((a) => a.times > 0 && a.when(request));
    if (answer) {
      answer.times -= 1;
      return synthetic(request, answer.status, answer.code);
    }
    if (this.crashWhen?.(request)) {
      const afterSend = this.crashAfterSend;
      this.crashWhen = undefined;
      if (afterSend) await next(request);
      throw new SimulatedCrash(afterSend ? 'response lost' : 'request not sent');
    }
    const faults = this.randomFaults;
    if (faults && faults.random() < faults.rate) {
      this.injected += 1;
      const kind = Math.floor(faults.random() * 4);
      if (kind === 0) return synthetic(request, 500);
      if (kind === 1) return synthetic(request, 503);
      if (kind === 2) throw new RestError('simulated timeout', { code: 'ETIMEDOUT', request });
      // The request reaches storage but the answer is lost.
      await next(request);
      throw new RestError('simulated timeout after send', { code: 'ETIMEDOUT', request });
    }
    return next(request);
  }
}

function serviceOf(url: string): StorageService {
  const { port, hostname, pathname } = new URL(url);
  // Azurite: one port per service; the account name leads the path (`devstoreaccount1`).
  // The table SDK addresses tables as `/<account>/<Table>(...)` or `/<account>/$batch`.
  if (hostname.includes('.table.')) return 'table';
  if (hostname.includes('.queue.')) return 'queue';
  if (hostname.includes('.blob.')) return 'blob';
  return servicePorts.get(port) ?? (pathname.includes('$batch') || /\/Tables|\(/.test(pathname) ? 'table' : 'blob');
}

/** Azurite ports of the test run, filled by `registerAzuritePorts`. */
const servicePorts = new Map<string, StorageService>();

export function registerAzuritePorts(connectionString: string): void {
  for (const part of connectionString.split(';')) {
    const [name, value] = part.split('=', 2) as [string, string | undefined];
    if (!value) continue;
    const service = name === 'TableEndpoint' ? 'table' : name === 'QueueEndpoint' ? 'queue' : name === 'BlobEndpoint' ? 'blob' : undefined;
    if (service) servicePorts.set(new URL(value).port, service);
  }
}

export function isTableTransaction(request: PipelineRequest): boolean {
  return request.method === 'POST' && request.url.includes('$batch');
}

/** The commit mark: the Replace of a batch-ledger row with If-Match. */
export function isLedgerCommit(request: PipelineRequest): boolean {
  return request.method === 'PUT' && request.url.includes('/batchledger(') && request.headers.has('if-match');
}

/** The ledger entry's creation: an insert into the batch ledger (not a transaction, not a point write). */
export function isLedgerCreate(request: PipelineRequest): boolean {
  return request.method === 'POST' && /\/batchledger(\?|$)/.test(request.url);
}

/** The pending-index row a push writes beside its ledger entry. */
export function isPendingRowWrite(request: PipelineRequest): boolean {
  return request.method === 'PUT' && request.url.includes('/pendingbatches(');
}

export function isBlobPut(request: PipelineRequest): boolean {
  return request.method === 'PUT' && serviceOf(request.url) === 'blob' && request.url.includes('/raw-batches/');
}

function synthetic(request: PipelineRequest, status: number, code = status === 503 ? 'ServerBusy' : 'InternalError'): PipelineResponse {
  return {
    request,
    status,
    headers: createHttpHeaders({ 'x-ms-error-code': code, 'content-type': 'application/json' }),
    bodyAsText: JSON.stringify({ 'odata.error': { code, message: { value: 'simulated' } } }),
  };
}

/** A read of one table row (`GET …/<table>(PartitionKey='…',RowKey='…')`). */
export function isTableRead(table: string): (request: PipelineRequest) => boolean {
  return (request) => request.method === 'GET' && request.url.toLowerCase().includes(`/${table.toLowerCase()}(`);
}
