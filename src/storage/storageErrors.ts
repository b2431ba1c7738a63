/** HTTP status of a storage SDK error, if it carries one. */
function storageStatus(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

export const isNotFound = (error: unknown): boolean => storageStatus(error) === 404;
/** Entity/blob already exists (create, `If-None-Match: *`). */
export const isConflict = (error: unknown): boolean => storageStatus(error) === 409;
/** ETag no longer current (`If-Match`), or a conditional blob put lost. */
export const isPreconditionFailed = (error: unknown): boolean => storageStatus(error) === 412;
