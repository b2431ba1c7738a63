/**
 * Every table, blob container and queue the service uses. Infrastructure (`infra/`) creates
 * exactly these; a test fails when the two drift apart.
 */
export const tableNames = {
  partners: 'partners',
  apiKeys: 'apikeys',
  /** HQ operator keys (by hash) with the operator's name and role; never the partner keys' table. */
  operatorKeys: 'operatorkeys',
  storeRegistrations: 'storeregistrations',
  stores: 'stores',
  products: 'products',
  /**
   * One row per partner and distinct product_id, however many stores carry it: what a push reads
   * for UNKNOWN_PRODUCT, so its read grows with the catalogue, not with products × stores.
   */
  productIds: 'productids',
  modifierGroups: 'modifiergroups',
  mappings: 'mappings',
  batchLedger: 'batchledger',
  tradeRecords: 'traderecords',
  /** Per partner, the store-day that counts each trade_record_id: finds the day a new version moves from. */
  tradeRecordHomes: 'traderecordhomes',
  dailyCloses: 'dailycloses',
  reconciliations: 'reconciliations',
  paymentDirections: 'paymentdirections',
  rateLimits: 'ratelimits',
  unmappedUsage: 'unmappedusage',
  /** Per partner and payment type: the closed days that used it, re-run when HQ sets its direction. */
  paymentTypeUsage: 'paymenttypeusage',
  /** Pushes between their first write and their commit, keyed by time, for the sweep. */
  pendingBatches: 'pendingbatches',
  /** Batches that ended FAILED, per partner, for HQ's list (the ledger itself is never scanned). */
  failedBatches: 'failedbatches',
  /** One row per reconciled store-day, from which each partner-day's store_days report file is written. */
  reportStoreDays: 'reportstoredays',
  /** Per partner and business date: whose turn it is to rewrite the store_days file, and the rounds done. */
  storeDaysWriters: 'storedayswriters',
  /** Per partner: its webhook endpoint (URL, event types, signing secrets) and the endpoint's health. */
  webhooks: 'webhooks',
  /** Events waiting for delivery, by partner and event id: the exact body every attempt signs. */
  webhookEvents: 'webhookevents',
  /** Events whose delivery was given up, for HQ. */
  webhookDeadLetters: 'webhookdeadletters',
} as const;

export const containerNames = {
  /** Exact bytes of every accepted push, one blob per (partner, batch_id). */
  rawBatches: 'raw-batches',
} as const;

export const queueNames = {
  /** Daily closes waiting for reconciliation (sent with a visibility delay). */
  reconcile: 'reconcile-requests',
  /** One message per webhook delivery; retries are new messages with a visibility delay. */
  webhookDeliveries: 'webhook-deliveries',
  /** One page of closed days to reconcile again after a mapping upload or a direction change; each sends the next. */
  closedDayReruns: 'closed-day-reruns',
} as const;

/** The Functions host moves a message here after the fifth failed dequeue. */
export function poisonQueueName(queueName: string): string {
  return `${queueName}-poison`;
}
