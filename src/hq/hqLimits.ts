/**
 * Every limit of the HQ API, stated once here; the request schemas are built from these values and
 * docs/hq-api.md and the README quote them.
 */
export const hqLimits = {
  /** Items per page of a list route when the caller names no `limit`. */
  pageDefault: 50,
  /** Most items per page of any list route. */
  pageMax: 200,
  /** Longest `from`..`to` range of the grid (and of the sales totals), days inclusive. */
  maxGridDays: 62,
  /** Largest body of an admin action. */
  maxBodyBytes: 16_384,
  /** store_ids in one store registration request. */
  maxStoresPerRegistration: 100,
  /** Hours after a business date ends before a missing daily close counts as overdue. */
  closeGraceHours: 6,
  /** Batches listed in one store-day's detail. */
  maxDayBatches: 1_000,
  /** Storage reads the grid runs at once for one page. */
  gridConcurrency: 16,
} as const;
