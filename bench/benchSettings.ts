/**
 * The service settings of every benchmark: the local service the parent starts and the child
 * processes that reconcile or write reports against the same storage must read the same figures
 * (a queue delay, limits far above the load the benchmarks send, the same report container).
 */
export function benchSettings(connectionString: string): Record<string, string> {
  return {
    AzureWebJobsStorage: connectionString,
    RECONCILE_DELAY_SECONDS: '1',
    MAX_REQUEST_BODY_BYTES: '5242880',
    RATE_LIMIT_PER_MINUTE: '1000000',
    MAX_TRANSACTIONS_PER_STORE_DAY: '100000',
    MAX_BATCHES_PER_STORE_DAY: '2000',
    BATCH_SWEEP_DELAY_SECONDS: '600',
    PARTNER_CACHE_SECONDS: '30',
    MAX_REQUEST_BYTES_IN_FLIGHT: '26214400',
    REPORTS_CONTAINER: 'reports',
    EVENT_TYPE_PREFIX: 'com.example.pos',
  };
}
