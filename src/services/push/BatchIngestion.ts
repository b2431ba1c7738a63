import { batchEndpointPath, type BatchKind } from '../../domain/model/BatchKind.js';
import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '../../errors/ApiError.js';
import { bodyBreaksRules } from '../../errors/bodyBreaksRules.js';
import { StorageError } from '../../errors/StorageError.js';
import type { Warning } from '../../domain/model/Warning.js';
import type { BodyValidator } from '../../bodyParsing/createBodyValidator.js';
import { parseJsonBody } from '../../bodyParsing/parseJsonBody.js';
import { parseStoredBody } from '../../bodyParsing/parseStoredBody.js';
import { isUuidShaped } from '../../domain/validation/isUuidShaped.js';
import type { BatchReceipt, LedgerEntry } from '../../storage/BatchLedger.js';
import type { Clock } from '../ports/Clock.js';
import type { Ledger } from '../ports/Ledger.js';
import type { FailedBatches } from '../ports/FailedBatches.js';
import type { PendingBatches } from '../ports/PendingBatches.js';
import type { RawBatches } from '../ports/RawBatches.js';
import type { TenantGuard } from '../TenantGuard.js';
import type { FailedBatch } from '../webhooks/BatchFailureEvents.js';
import type { BatchAcknowledgement } from './BatchAcknowledgement.js';
import type { BatchProcessor } from './BatchProcessor.js';

/** Hooks between the write steps of a push; the fault-injection tests crash the push there. */
export type PushStep = 'ledger-created' | 'blob-stored' | 'applied' | 'committed';

export interface BatchIngestionOptions {
  readonly validator: BodyValidator;
  readonly tenants: TenantGuard;
  readonly ledger: Ledger;
  readonly rawBatches: RawBatches;
  readonly pendingIndex: PendingBatches;
  /** Where a batch is noted before the ledger says FAILED, for HQ's list. */
  readonly failedIndex: FailedBatches;
  readonly clock: Clock;
  /**
   * Every kind's processor: a pending batch found under a reused batch_id is completed by the
   * processor of its own kind, whichever endpoint the request that found it was sent to.
   */
  readonly processors: Readonly<Record<BatchKind, BatchProcessor<{ batch_id: string }>>>;
  /** A PENDING entry older than this without a stored body was abandoned by a crashed request. */
  readonly abandonedAfterMs?: number | undefined;
  readonly onStep?: ((step: PushStep, batchId: string) => Promise<void> | void) | undefined;
  /** Told once a batch has ended FAILED (HQ's figure, the partner's batch.failed event). */
  readonly onFailed?: ((batch: FailedBatch) => Promise<void>) | undefined;
}

/**
 * The one pipeline every push goes through (DESIGN §5): parse → schema → limits → tenancy →
 * semantic checks → ledger entry and raw blob (side by side) → apply → commit. Nothing is
 * acknowledged before the commit mark; a crash between any two writes leaves a state that a retry
 * or the sweep completes from the stored blob, and only the request whose commit succeeds answers
 * ACCEPTED. A body is applied only under a ledger entry with its hash.
 */
export class BatchIngestion {
  private readonly abandonedAfterMs: number;

  constructor(private readonly options: BatchIngestionOptions) {
    this.abandonedAfterMs = options.abandonedAfterMs ?? 30_000;
  }

  /** The JSON value of a push body; throws INVALID_PAYLOAD for bytes that are not acceptable JSON. */
  parse(bytes: Uint8Array): object {
    const parsed = parseJsonBody(bytes);
    if (!parsed.ok) throw new ApiError('INVALID_PAYLOAD', 'The body is not acceptable JSON.', parsed.problems);
    // parseJsonBody accepts a JSON object only.
    return parsed.value as object;
  }

  /** Validates a parsed push; throws ApiError for every reason to reject it. */
  async validate<T extends { batch_id: string }>(
    partnerId: string,
    processor: BatchProcessor<T>,
    value: object,
    ahead?: unknown,
  ): Promise<T> {
    const body = value as Record<string, unknown>;
    if (processor.collection) {
      // Counted before the schema runs, so a huge batch is refused without validating every record.
      const records = body[processor.collection];
      const max = this.options.validator.maxItems(processor.kind, processor.collection);
      if (Array.isArray(records) && max !== undefined && records.length > max) {
        throw new ApiError(
          'BATCH_TOO_LARGE',
          `${processor.collection} holds ${records.length} entries; at most ${max} are allowed per batch.`,
        );
      }
    }
    const schemaProblems = this.options.validator.validate(processor.kind, body);
    if (schemaProblems.length > 0) throw new ApiError('INVALID_PAYLOAD', 'The body does not match the schema.', schemaProblems);
    const typed = body as unknown as T;
    // The tenancy check and the semantic checks (which read the store master, then scan for card
    // numbers and identifying personal data) run side by side; a store that is not registered
    // is refused first all the same.
    const [tenancy, checked] = await Promise.allSettled([
      this.options.tenants.requireStores(partnerId, processor.storesOf(typed)),
      processor.check(partnerId, typed, ahead),
    ]);
    if (tenancy.status === 'rejected') throw tenancy.reason;
    if (checked.status === 'rejected') throw checked.reason;
    const check = checked.value;
    if (check.problems.length > 0) throw bodyBreaksRules(check.problems);
    if (check.unknownStandardCodes && check.unknownStandardCodes.length > 0) {
      throw new ApiError('UNKNOWN_STANDARD_CODE', undefined, check.unknownStandardCodes);
    }
    return typed;
  }

  /**
   * Starts the reads a push's checks need from the first bytes of its body, for {@link push}. Only a
   * head start: called while the body is read, it must not fail the read, so a failure leaves the
   * reads to the parse.
   */
  readAheadFromHead<T extends { batch_id: string }>(partnerId: string, processor: BatchProcessor<T>, head: Uint8Array): unknown {
    try {
      return processor.readAheadFromHead?.(partnerId, head);
    } catch {
      return undefined;
    }
  }

  /**
   * Validates, stores and applies a push exactly once; answers ACCEPTED to exactly one request.
   * `admitted` (the rate-limit decision, taken while the body was read) is awaited before the first
   * write, so a refused push writes nothing. `aheadFromHead` is what {@link readAheadFromHead} started.
   * `onBatchId` is told the body's batch_id once it is parsed, if it is one the schema would take,
   * whatever the push's outcome (the access log names it).
   */
  async push<T extends { batch_id: string }>(
    partnerId: string,
    processor: BatchProcessor<T>,
    bytes: Uint8Array,
    admitted: Promise<void> = Promise.resolve(),
    aheadFromHead?: unknown,
    onBatchId?: (batchId: string) => void,
  ): Promise<BatchAcknowledgement> {
    // A body that is not JSON was never accepted, so its refusal needs no look at the ledger.
    const value = this.parse(bytes);
    const named = (value as { batch_id?: unknown }).batch_id;
    if (typeof named === 'string' && isUuidShaped(named)) onBatchId?.(named);
    const ahead = aheadFromHead ?? processor.readAhead?.(partnerId, value);
    let body: T;
    try {
      body = await this.validate(partnerId, processor, value, ahead);
    } catch (error) {
      const repeat = await this.acceptedRepeat(partnerId, value, bytes, error);
      if (repeat === undefined) throw error;
      await admitted;
      return repeat;
    }
    await admitted;
    const batchId = body.batch_id;
    const bodyHash = createHash('sha256').update(bytes).digest('hex');
    const { ledger, rawBatches } = this.options;

    // Most pushes are first receipts: the entry is created without reading it first, and only a
    // create that finds an entry already there reads it.
    let createFirst = true;
    for (;;) {
      let entry: LedgerEntry | undefined;
      // The outcome of storing the body beside the entry's creation, when this pass did.
      let stored: Settled<boolean> | undefined;
      if (createFirst) {
        createFirst = false;
        // The entry, the pending-index row and the body are written side by side. A crash can then
        // leave a stored body with no entry: it was never acknowledged, no one applies it (a body
        // is applied only under an entry with its hash), and a request whose entry holds the
        // batch_id replaces it (below). An entry whose pending row could not be written is taken
        // back, so that the sweep, which finds batches by that row, is not left one it cannot find;
        // a row for an entry that already existed is taken back too. (A repeat of a committed
        // batch so uploads its body once more in vain, refused as present: repeats are rare, and
        // first receipts are what this order speeds up.)
        const now = this.options.clock();
        const pending = { partnerId, batchId, createdAt: now.toISOString() };
        processor.prepare?.(partnerId, body);
        const [indexed, created, put] = await Promise.all([
          settle(this.options.pendingIndex.add(pending)),
          ledger.createPending(partnerId, batchId, processor.kind, bodyHash, now),
          settle(rawBatches.putOnce(partnerId, batchId, bytes, bodyHash)),
        ]);
        if (!indexed.ok) {
          if (created) await ledger.deleteAbandoned(partnerId, batchId, created).catch(() => false);
          throw indexed.error;
        }
        if (!created) await this.forgetPending(partnerId, batchId, pending.createdAt);
        entry = created;
        stored = put;
        if (entry) await this.step('ledger-created', batchId);
      }
      entry ??= await ledger.get(partnerId, batchId);
      if (!entry) {
        // The entry was dropped (abandoned) between the create and the read: create it anew.
        createFirst = true;
        continue;
      }
      if (entry.state === 'COMMITTED') {
        const same = entry.bodyHash === bodyHash || (entry.kind === processor.kind && (await this.sameContent(partnerId, batchId, body)));
        return alreadyReceived(batchId, entry, same, processor.kind);
      }
      if (entry.state === 'FAILED') throw batchFailed();

      if (entry.bodyHash !== bodyHash) {
        const outcome = await this.resolveForeignPending(partnerId, batchId, entry);
        if (outcome === 'retry') continue;
        return outcome;
      }

      let isNew: boolean;
      try {
        isNew = stored ? unwrap(stored) : await rawBatches.putOnce(partnerId, batchId, bytes, bodyHash);
      } catch (error) {
        if (isContentRefusal(error)) await this.fail(partnerId, batchId, entry, processor, body, error);
        throw error;
      }
      if (!isNew) {
        const storedHash = await rawBatches.storedHash(partnerId, batchId);
        if (storedHash !== bodyHash && !(await this.replaceOrphan(partnerId, batchId, bytes, bodyHash, storedHash))) continue;
      }
      await this.step('blob-stored', batchId);
      const receipt = await this.applyAndCommit(partnerId, batchId, entry, processor, body, true);
      if (receipt) {
        await this.step('committed', batchId);
        // The batch is safe once committed; its pending-index row is removed without holding up the
        // answer (a removal that never happens leaves the row to the sweep, which finds it finished).
        // A trade-record batch keeps its row: the sweep stages its report fragment, then removes it.
        if (!stagesReportFragment(processor.kind)) void this.forgetPending(partnerId, batchId, entry.createdAt);
        return { batch_id: batchId, status: 'ACCEPTED', record_count: receipt.recordCount, warnings: receipt.warnings };
      }
      // Another copy of this batch committed first: answer as a repeat.
    }
  }

  /**
   * Completes a PENDING batch from its stored blob (used by the sweep and by a request that finds
   * a batch of the same id with another body in flight). Returns false when there is no blob.
   */
  async completeFromBlob<T extends { batch_id: string }>(
    partnerId: string,
    batchId: string,
    entry: LedgerEntry,
    processor: BatchProcessor<T>,
  ): Promise<boolean> {
    const stored = await this.options.rawBatches.get(partnerId, batchId);
    if (!stored) return false;
    // A stored body that is not the entry's was never acknowledged under this entry.
    if (createHash('sha256').update(stored).digest('hex') !== entry.bodyHash) return false;
    const parsed = parseStoredBody(stored);
    if (parsed === undefined) throw new Error(`Stored body of a batch cannot be parsed (${processor.kind}).`);
    await this.applyAndCommit(partnerId, batchId, entry, processor, parsed as T, false);
    if (!stagesReportFragment(processor.kind)) await this.forgetPending(partnerId, batchId, entry.createdAt);
    return true;
  }

  /**
   * Applies a batch whose body is stored and marks it committed. Returns the receipt, or undefined
   * when another request committed the batch first. When storage refuses what the batch writes,
   * the batch ends FAILED (see {@link fail}) and this throws BATCH_FAILED.
   */
  private async applyAndCommit<T extends { batch_id: string }>(
    partnerId: string,
    batchId: string,
    entry: LedgerEntry,
    processor: BatchProcessor<T>,
    body: T,
    withSteps: boolean,
  ): Promise<BatchReceipt | undefined> {
    const context = { partnerId, body, receivedAt: entry.createdAt };
    let receipt: BatchReceipt;
    let committed: boolean;
    try {
      const warnings = await processor.apply(context);
      if (withSteps) await this.step('applied', batchId);
      receipt = { recordCount: processor.recordCount(body), warnings };
      committed = await this.options.ledger.commit(partnerId, batchId, entry, receipt, this.options.clock());
    } catch (error) {
      if (isContentRefusal(error)) await this.fail(partnerId, batchId, entry, processor, body, error);
      throw error;
    }
    if (committed) return receipt;
    const current = await this.options.ledger.get(partnerId, batchId);
    if (current?.state === 'FAILED') {
      // Another request failed this batch while this one applied it: what this one wrote goes too.
      await processor.discard?.(context);
      throw batchFailed();
    }
    return undefined;
  }

  /**
   * Storage refused what a batch writes (DESIGN §5: only transient failures retry): what it wrote
   * is removed where it would be counted, then the ledger says FAILED, last. A crash in between
   * leaves the batch PENDING, and the sweep (or a retry) meets the same refusal and comes here
   * again. The partner is told not to send the batch_id again; HQ lists the batch as failed.
   */
  private async fail<T extends { batch_id: string }>(
    partnerId: string,
    batchId: string,
    entry: LedgerEntry,
    processor: BatchProcessor<T>,
    body: T,
    cause: StorageError,
  ): Promise<never> {
    const { ledger } = this.options;
    let current = await ledger.get(partnerId, batchId);
    // Committed by another copy meanwhile: nothing of it may be removed.
    if (current?.state === 'COMMITTED')
      throw new ApiError('SERVICE_UNAVAILABLE', 'The batch was committed meanwhile; send it again.', [], 1);
    await processor.discard?.({ partnerId, body, receivedAt: entry.createdAt });
    // Noted first: a batch the ledger calls FAILED is always in HQ's list.
    await this.options.failedIndex.add({ partnerId, batchId, createdAt: entry.createdAt });
    for (let attempt = 0; attempt < 3 && current?.state === 'PENDING' && current.bodyHash === entry.bodyHash; attempt++) {
      const failedAt = this.options.clock();
      if (await ledger.markFailed(partnerId, batchId, current, cause.message, failedAt)) {
        try {
          await this.announceFailure(partnerId, batchId, processor.kind, failedAt);
          await this.forgetPending(partnerId, batchId, entry.createdAt);
        } catch {
          // The ledger already says FAILED and HQ lists the batch; the partner still gets its
          // BATCH_FAILED answer. The batch keeps its pending-index row, so the sweep tells again.
        }
        break;
      }
      current = await ledger.get(partnerId, batchId);
    }
    throw batchFailed(cause);
  }

  /**
   * Tells HQ (its figure) and the partner (a batch.failed event) that a batch ended FAILED. The
   * event id is the batch's, so telling again is harmless: the sweep does when it finds a FAILED
   * batch still in the pending index, the mark of a failure not yet told (a crash, or the event
   * not queued, right after the ledger said FAILED).
   */
  async announceFailure(partnerId: string, batchId: string, kind: BatchKind, failedAt: Date): Promise<void> {
    const failure = batchFailed();
    await this.options.onFailed?.({
      partnerId,
      batchId,
      endpoint: batchEndpointPath[kind],
      code: failure.code,
      message: failure.message,
      failedAt,
    });
  }

  /** Drops a PENDING entry that has no stored body once it is old enough to be abandoned. */
  async dropIfAbandoned(partnerId: string, batchId: string, entry: LedgerEntry): Promise<boolean> {
    const age = this.options.clock().getTime() - Date.parse(entry.createdAt);
    if (age < this.abandonedAfterMs) return false;
    const dropped = await this.options.ledger.deleteAbandoned(partnerId, batchId, entry);
    if (dropped) await this.forgetPending(partnerId, batchId, entry.createdAt);
    return dropped;
  }

  /**
   * Removes a finished batch's pending-index row. A failure is left to the sweep, which finds the
   * row, sees the batch finished and removes it: the batch itself is safe either way.
   */
  async forgetPending(partnerId: string, batchId: string, createdAt: string): Promise<void> {
    try {
      await this.options.pendingIndex.remove({ partnerId, batchId, createdAt });
    } catch {
      // Left for the sweep.
    }
  }

  /**
   * This request's PENDING entry holds the batch_id, yet another body is stored under it: a body
   * whose request never got its entry written (or had it dropped as abandoned), so it was never
   * acknowledged and nothing applies it. This body takes its place (or a copy of this request
   * put it there first). False when the entry is no longer this request's (another body holds the
   * id: the caller starts over); throws 503 when yet another body was stored meanwhile.
   */
  private async replaceOrphan(
    partnerId: string,
    batchId: string,
    bytes: Uint8Array,
    bodyHash: string,
    orphanHash: string | undefined,
  ): Promise<boolean> {
    const current = await this.options.ledger.get(partnerId, batchId);
    if (current?.state !== 'PENDING' || current.bodyHash !== bodyHash) return false;
    const { rawBatches } = this.options;
    if (orphanHash !== undefined && (await rawBatches.replaceOrphan(partnerId, batchId, bytes, bodyHash, orphanHash))) return true;
    if ((await rawBatches.storedHash(partnerId, batchId)) === bodyHash) return true;
    throw new ApiError('SERVICE_UNAVAILABLE', 'A batch with this batch_id is still being processed; retry shortly.', [], 5);
  }

  /**
   * A body refused now that was accepted before, byte for byte, under its batch_id: a repeat, which
   * the contract answers 200 ALREADY_RECEIVED whatever has changed since (the store's currency, a
   * limit, the store's retirement). That includes a first attempt cut off after its body was
   * stored but before its commit: it passed the checks then, so it is finished from the stored body
   * here, as the sweep would finish it, rather than refused to the partner while HQ counts it.
   * Read only on the refusal path; undefined for anything else, and when the ledger cannot be read
   * (the refusal then stands).
   */
  private async acceptedRepeat(
    partnerId: string,
    value: object,
    bytes: Uint8Array,
    refusal: unknown,
  ): Promise<BatchAcknowledgement | undefined> {
    if (!(refusal instanceof ApiError) || refusal.status >= 500) return undefined;
    const batchId = (value as { batch_id?: unknown }).batch_id;
    // Only an id the schema would take can have been accepted; anything else is not sent to storage.
    if (typeof batchId !== 'string' || !isUuidShaped(batchId)) return undefined;
    const { ledger } = this.options;
    let entry = await ledger.get(partnerId, batchId).catch(() => undefined);
    const bodyHash = createHash('sha256').update(bytes).digest('hex');
    if (entry?.bodyHash !== bodyHash) return undefined;
    if (entry.state === 'PENDING') {
      // Without its stored body the first attempt was never accepted: the refusal stands.
      if (!(await this.completeFromBlob(partnerId, batchId, entry, this.options.processors[entry.kind]))) return undefined;
      entry = await ledger.get(partnerId, batchId);
    }
    if (entry?.state !== 'COMMITTED') return undefined;
    // The same bytes: no warning to word, whichever endpoint they were sent to.
    return alreadyReceived(batchId, entry, true, entry.kind);
  }

  /**
   * Whether the parsed `body` says what the batch's stored body says, written otherwise: keys in
   * another order, other spacing or escapes, the batch_id in other letter case. A client that builds
   * the JSON again for its retry sends the same batch; only other content is a reused batch_id. (A
   * stored body read with `parseStoredBody` gives the value the request's parser gave it.)
   */
  private async sameContent(partnerId: string, batchId: string, body: unknown): Promise<boolean> {
    const storedBytes = await this.options.rawBatches.get(partnerId, batchId);
    const stored = storedBytes && parseStoredBody(storedBytes);
    return stored !== undefined && isDeepStrictEqual(withBatchIdLowerCase(stored), withBatchIdLowerCase(body));
  }

  /**
   * The batch_id is PENDING with another body: the first body wins if it was stored (it is
   * finished from the blob, and this request is told the id was reused); an entry abandoned
   * before its body was stored is dropped so this body can take the id.
   */
  private async resolveForeignPending(partnerId: string, batchId: string, entry: LedgerEntry): Promise<BatchAcknowledgement | 'retry'> {
    // The stored body is the entry's, of its kind: applied by the processor of that kind, never by
    // the one of the endpoint this request was sent to (a batch_id reused across endpoints).
    if (await this.completeFromBlob(partnerId, batchId, entry, this.options.processors[entry.kind])) return 'retry';
    if (await this.dropIfAbandoned(partnerId, batchId, entry)) return 'retry';
    throw new ApiError('SERVICE_UNAVAILABLE', 'A batch with this batch_id is still being processed; retry shortly.', [], 5);
  }

  private async step(step: PushStep, batchId: string): Promise<void> {
    await this.options.onStep?.(step, batchId);
  }
}

type Settled<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: unknown };

/** Waits for a promise without letting its failure overtake the writes beside it. */
function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true, value }),
    (error: unknown) => ({ ok: false, error }),
  );
}

function unwrap<T>(settled: Settled<T>): T {
  if (settled.ok) return settled.value;
  throw settled.error;
}

/** Storage refused the batch's content: the same content will always be refused. */
function isContentRefusal(error: unknown): error is StorageError {
  return error instanceof StorageError && error.kind === 'invalid';
}

function batchFailed(cause?: StorageError): ApiError {
  return new ApiError('BATCH_FAILED', undefined, [], undefined, cause ? { cause } : {});
}

/**
 * The first receipt of a batch_id, answered again (`sentTo`: the endpoint of the request now). A
 * different body gets BATCH_ID_REUSED, which names the first batch's endpoint when it was another:
 * the receipt then describes that batch, and a client reading only the status would be misled.
 */
function alreadyReceived(
  batchId: string,
  entry: Extract<LedgerEntry, { state: 'COMMITTED' }>,
  sameContent: boolean,
  sentTo: BatchKind,
): BatchAcknowledgement {
  const warnings: Warning[] = [...entry.receipt.warnings];
  if (!sameContent) {
    const where = entry.kind === sentTo ? '' : ` at /pos/v1/${batchEndpointPath[entry.kind]}, and this receipt is of that batch`;
    warnings.push({
      code: 'BATCH_ID_REUSED',
      path: 'batch_id',
      message: `This batch_id was first received with a different body${where}; the new body was not applied. Use a new batch_id for new data.`,
    });
  }
  return { batch_id: batchId, status: 'ALREADY_RECEIVED', record_count: entry.receipt.recordCount, warnings };
}

/** A parsed body with its batch_id in lower case, as the ledger keys it (UUIDs ignore letter case). */
function withBatchIdLowerCase(value: unknown): unknown {
  const body = value as { batch_id?: unknown } | undefined;
  return typeof body?.batch_id === 'string' ? { ...body, batch_id: body.batch_id.toLowerCase() } : value;
}

/**
 * A committed trade-record batch keeps its pending-index row: the sweep that finds it converts the
 * batch into its report fragment in the background, then removes the row (no write is added to the
 * push, one is saved).
 */
function stagesReportFragment(kind: string): boolean {
  return kind === 'tradeRecords';
}
