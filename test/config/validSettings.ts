import type { Settings } from '../../src/config/loadConfig.js';

/** A complete, valid set of settings; each test changes the one it is about. */
export const validSettings: Settings = {
  AzureWebJobsStorage: 'UseDevelopmentStorage=true',
  RECONCILE_DELAY_SECONDS: '900',
  MAX_REQUEST_BODY_BYTES: '5242880',
  RATE_LIMIT_PER_MINUTE: '600',
  MAX_TRANSACTIONS_PER_STORE_DAY: '100000',
  MAX_BATCHES_PER_STORE_DAY: '2000',
  BATCH_SWEEP_DELAY_SECONDS: '300',
  PARTNER_CACHE_SECONDS: '30',
  MAX_REQUEST_BYTES_IN_FLIGHT: '26214400',
  REPORTS_CONTAINER: 'reports',
  EVENT_TYPE_PREFIX: 'com.example.pos',
};
