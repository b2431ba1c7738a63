/**
 * Names of every setting the service reads (the local host's `PORT` aside: src/localhost/localPort.ts).
 * The same names appear in
 * `local.settings.sample.json` and in the app settings of `infra/`; a test keeps the three in step.
 */
export const settingNames = {
  /** Functions storage connection: a connection string locally (`UseDevelopmentStorage=true`). */
  storage: 'AzureWebJobsStorage',
  /** Identity-based form of the same connection, used in Azure (no keys). */
  storageBlobServiceUri: 'AzureWebJobsStorage__blobServiceUri',
  storageQueueServiceUri: 'AzureWebJobsStorage__queueServiceUri',
  storageTableServiceUri: 'AzureWebJobsStorage__tableServiceUri',
  storageCredential: 'AzureWebJobsStorage__credential',
  storageClientId: 'AzureWebJobsStorage__clientId',
  reconcileDelaySeconds: 'RECONCILE_DELAY_SECONDS',
  maxRequestBodyBytes: 'MAX_REQUEST_BODY_BYTES',
  rateLimitPerMinute: 'RATE_LIMIT_PER_MINUTE',
  /** Transactions one store and business date may receive, summed over its batches. */
  maxTransactionsPerStoreDay: 'MAX_TRANSACTIONS_PER_STORE_DAY',
  /** Transaction batches one store and business date may receive. */
  maxBatchesPerStoreDay: 'MAX_BATCHES_PER_STORE_DAY',
  batchSweepDelaySeconds: 'BATCH_SWEEP_DELAY_SECONDS',
  maxRequestBytesInFlight: 'MAX_REQUEST_BYTES_IN_FLIGHT',
  /** Seconds an instance keeps key → partner and per-partner lookups; bounds how late a revocation takes effect. */
  partnerCacheSeconds: 'PARTNER_CACHE_SECONDS',
  /** Read by the Functions host itself (and the local host): larger bodies never reach a function. */
  hostRequestBodySizeLimit: 'FUNCTIONS_REQUEST_BODY_SIZE_LIMIT',
  /**
   * Read by the Functions host itself (and the local host): `true` answers `/` with an empty 204
   * instead of the host's page announcing the runtime to anyone who asks.
   */
  hostDisableHomepage: 'AzureWebJobsDisableHomepage',
  /** Blob container of the HQ report files (Hive-partitioned Parquet). */
  reportsContainer: 'REPORTS_CONTAINER',
  /** Reverse-DNS prefix of every event type sent to partners, e.g. `com.contoso.pos`. */
  eventTypePrefix: 'EVENT_TYPE_PREFIX',
  /**
   * `true` lets webhooks go to private, loopback and link-local addresses (and over plain http to
   * those only): local development and tests. Never set in Azure; absent means `false`.
   */
  webhookAllowPrivateTargets: 'WEBHOOK_ALLOW_PRIVATE_TARGETS',
} as const;

/**
 * Tunables every environment sets explicitly (local sample file and Bicep app settings alike).
 * @internal read by the test that keeps the code, the sample file and infra/ in step.
 */
export const tunableSettingNames = [
  settingNames.reconcileDelaySeconds,
  settingNames.maxRequestBodyBytes,
  settingNames.rateLimitPerMinute,
  settingNames.maxTransactionsPerStoreDay,
  settingNames.maxBatchesPerStoreDay,
  settingNames.batchSweepDelaySeconds,
  settingNames.maxRequestBytesInFlight,
  settingNames.partnerCacheSeconds,
  settingNames.reportsContainer,
  settingNames.eventTypePrefix,
] as const;

/**
 * Settings the identity-based storage connection needs in Azure.
 * @internal read by the test that keeps the code and infra/ in step.
 */
export const identityStorageSettingNames = [
  settingNames.storageBlobServiceUri,
  settingNames.storageQueueServiceUri,
  settingNames.storageTableServiceUri,
  settingNames.storageCredential,
  settingNames.storageClientId,
] as const;
