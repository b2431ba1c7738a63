/** A daily close as the order of corrections sees it. */
export interface CloseReceipt {
  readonly batchId: string;
  /** When HQ first received the close (its ledger time). */
  readonly receivedAt: string;
}

/**
 * Whether `candidate` supersedes `current`: received later, or at the same instant with the
 * greater batch_id. A strict total order, so the close row and the day's result row, written
 * side by side by each close, always end up naming the same close.
 */
export function closeComesAfter(candidate: CloseReceipt, current: CloseReceipt): boolean {
  if (candidate.receivedAt !== current.receivedAt) return candidate.receivedAt > current.receivedAt;
  return candidate.batchId > current.batchId;
}
