import type { RerunNote } from './reruns/RerunNote.js';

/** Message of the reconcile queue: reconcile this store-day against this close. */
export interface ReconcileMessage {
  readonly partnerId: string;
  readonly storeId: string;
  readonly businessDate: string;
  /** The close the message was sent for; a later close supersedes it and the message does nothing. */
  readonly closeBatchId: string;
  /**
   * Names this run: a retry of the message that finds its result already stored publishes that
   * result again (same event ids) instead of computing a new one; a run noted as the day's pending
   * run clears the note when it starts. Every sender names its runs (`close-`, `late-`, `remap-`,
   * `direction-`, `failed-` and the batch or a random id); absent in messages sent before runs were named.
   */
  readonly runId?: string;
  /** When the run was meant to start (ISO 8601): the reconciliation lag HQ watches is measured from here. */
  readonly dueAt?: string;
  /**
   * The notes a rerun scheduled this run for (at most one page of them), forgotten once it has
   * written the day's result and files. A run that fails keeps them, so a day whose run never
   * succeeds stays in HQ's unmapped view and is found by the next change.
   */
  readonly rerunNotes?: readonly RerunNote[];
}
