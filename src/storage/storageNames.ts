/**
 * Every table, blob container and queue the service uses. Infrastructure (`infra/`) creates
 * exactly these; a test fails when the two drift apart.
 */
export const tableNames = {
  partners: 'partners',
  apiKeys: 'apikeys',
  storeRegistrations: 'storeregistrations',
  stores: 'stores',
  products: 'products',
  modifierGroups: 'modifiergroups',
  mappings: 'mappings',
  batchLedger: 'batchledger',
  tradeRecords: 'traderecords',
  dailyCloses: 'dailycloses',
  reconciliations: 'reconciliations',
  paymentDirections: 'paymentdirections',
  rateLimits: 'ratelimits',
  unmappedUsage: 'unmappedusage',
  /** Pushes between their first write and their commit, keyed by time, for the sweep. */
  pendingBatches: 'pendingbatches',
} as const;

export const containerNames = {
  /** Exact bytes of every accepted push, one blob per (partner, batch_id). */
  rawBatches: 'raw-batches',
} as const;

export const queueNames = {
  /** Daily closes waiting for reconciliation (sent with a visibility delay). */
  reconcile: 'reconcile-requests',
} as const;

/** The Functions host moves a message here after the fifth failed dequeue. */
export function poisonQueueName(queueName: string): string {
  return `${queueName}-poison`;
}
