/**
 * A conditional write of one row kept losing to other writers until its attempts ran out. Nothing
 * was written by this call; the operation may be tried again later.
 */
export class WriteContentionError extends Error {
  override readonly name = 'WriteContentionError';

  constructor(
    readonly table: string,
    readonly attempts: number,
  ) {
    super(`A row of table ${table} kept changing under ${attempts} attempts to write it.`);
  }
}
