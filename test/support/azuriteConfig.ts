import { inject } from 'vitest';
import type { Config } from '../../src/config/Config.js';
import { loadConfig } from '../../src/config/loadConfig.js';

/** The service's configuration on the test run's storage emulator, for tests that build storage clients themselves. */
export function azuriteConfig(): Config {
  return loadConfig({
    AzureWebJobsStorage: inject('azuriteConnectionString'),
    RECONCILE_DELAY_SECONDS: '1',
    MAX_REQUEST_BODY_BYTES: '5242880',
    RATE_LIMIT_PER_MINUTE: '1000',
    MAX_TRANSACTIONS_PER_STORE_DAY: '100000',
    MAX_BATCHES_PER_STORE_DAY: '2000',
    BATCH_SWEEP_DELAY_SECONDS: '300',
    PARTNER_CACHE_SECONDS: '30',
    MAX_REQUEST_BYTES_IN_FLIGHT: '26214400',
    REPORTS_CONTAINER: 'reports',
    EVENT_TYPE_PREFIX: 'com.example.pos',
  });
}
