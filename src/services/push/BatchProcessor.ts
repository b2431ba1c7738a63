import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import type { Warning } from '../../domain/model/Warning.js';
import type { BatchKind } from '../../domain/model/BatchKind.js';
import type { StoreReference } from '../TenantGuard.js';

/** Where and when a validated batch is being applied. */
export interface ApplyContext<T> {
  readonly partnerId: string;
  readonly body: T;
  /** When HQ first received the batch (its ledger entry): orders corrections of the same thing. */
  readonly receivedAt: string;
}

/** Outcome of the checks a schema cannot express. */
export interface SemanticCheck {
  readonly problems: readonly ProblemDetail[];
  /** Mapping uploads only: standard codes outside the standard list (400 UNKNOWN_STANDARD_CODE). */
  readonly unknownStandardCodes?: readonly ProblemDetail[];
}

/**
 * What differs between the push endpoints. The pipeline around it (parse, schema, limits,
 * tenancy, ledger, raw blob, commit) is the same for all of them: `BatchIngestion`.
 */
export interface BatchProcessor<T extends { batch_id: string }, A = unknown> {
  readonly kind: BatchKind;
  /**
   * The top-level array whose length beyond its schema's maxItems is answered BATCH_TOO_LARGE
   * (contract §8) rather than INVALID_PAYLOAD.
   */
  readonly collection?: string;
  /** Stores the body names, and where: every one must be registered for the partner. */
  storesOf(body: T): StoreReference[];
  /**
   * Called with the parsed body before it is validated: starts the reads `check` needs that depend
   * only on where the body says it goes, so that they overlap validation. The body is not trusted
   * yet: only well-formed values may be used, and only to read the partner's own data. `check` gets
   * what this returned and uses it only if the validated body names the same place.
   */
  readAhead?(partnerId: string, value: object): A | undefined;
  /**
   * The same reads, started sooner: from the first bytes of the body while the rest still arrives.
   * Only a guess from text that may be cut anywhere; `check` still compares it with the validated body.
   */
  readAheadFromHead?(partnerId: string, head: Uint8Array): A | undefined;
  check(partnerId: string, body: T, ahead?: A): Promise<SemanticCheck>;
  /**
   * Called once a push is validated, as its ledger entry is written: starts the reads `apply` will
   * decide on, so they overlap that write. Only reads; a push that ends before `apply` drops them.
   */
  prepare?(partnerId: string, body: T): void;
  recordCount(body: T): number;
  /**
   * Applies the batch to the index and master data. Must be idempotent: a retry or the sweep may
   * apply the same batch again after a crash. Returns the warnings of the acknowledgement.
   */
  apply(context: ApplyContext<T>): Promise<Warning[]>;
  /**
   * Storage refused part of what `apply` writes, so the batch ends FAILED: removes what the batch
   * may have left where it would be counted, and puts back what it replaced. Idempotent; runs
   * before the ledger says FAILED, so a crash in between leaves the batch PENDING for the sweep,
   * which applies it, meets the same refusal and gets here again. Kinds whose rows nothing
   * counts (master data, the mapping pointer) leave what was written.
   */
  discard?(context: ApplyContext<T>): Promise<void>;
}
