/**
 * A read of one row started ahead of its write (while the push's ledger entry is written), handed
 * to the write so it needs no read of its own. Only a first guess: the write is still guarded by
 * the row's ETag (or by create when the row was absent), and a row changed meanwhile, or a read
 * that failed, costs the usual read.
 */
export interface RowReadAhead {
  readonly row: Promise<unknown>;
}
