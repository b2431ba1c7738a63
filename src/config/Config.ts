/** How the service reaches Azure Storage: a connection string locally, a managed identity in Azure. */
export type StorageConnection =
  | { readonly kind: 'connectionString'; readonly connectionString: string }
  | {
      readonly kind: 'identity';
      readonly blobServiceUri: string;
      readonly queueServiceUri: string;
      readonly tableServiceUri: string;
      /** Client id of the user-assigned identity; absent for a system-assigned one. */
      readonly clientId: string | undefined;
    };

/** The service's whole configuration, read once at start-up and frozen. */
export interface Config {
  readonly storage: StorageConnection;
  /** Delay between a daily close and its reconciliation (contract: about 15 minutes). */
  readonly reconcileDelaySeconds: number;
  /** Largest accepted request body (contract: 5 MB). */
  readonly maxRequestBodyBytes: number;
  /** Default /trade-records calls per partner per minute; HQ may set a partner's own limit. */
  readonly rateLimitPerMinute: number;
  /**
   * Transactions a store-day may receive, summed over its batches that did not fail (a transaction
   * sent again counts again): bounds what one reconciliation of the day lists and builds.
   */
  readonly maxTransactionsPerStoreDay: number;
  /** Transaction batches a store-day may receive, failed ones included: every push lists them to count. */
  readonly maxBatchesPerStoreDay: number;
  /** How long after a push the background sweep checks that the batch was committed. */
  readonly batchSweepDelaySeconds: number;
  /**
   * How long an instance trusts what it read about a caller: key → partner, the partner's status
   * and rate limit, its store registrations and store currencies (0: read on every request).
   * A revoked key, a deactivated partner or a changed store takes effect within this many seconds.
   */
  readonly partnerCacheSeconds: number;
  /** Request body bytes one instance holds at once; a body that does not fit gets a retryable 503. */
  readonly maxRequestBytesInFlight: number;
  /** Blob container the HQ report files are written to; never the raw-batch container. */
  readonly reportsContainer: string;
  /** Reverse-DNS prefix of event types (`<prefix>.reconciliation.completed`); the same in every environment. */
  readonly eventTypePrefix: string;
  /** Local development and tests only: webhook targets may be private or loopback addresses. */
  readonly webhookAllowPrivateTargets: boolean;
}
