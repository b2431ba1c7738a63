// Every table, blob container and queue the service uses. This is the only place in the
// infrastructure that spells these names; it mirrors src/storage/storageNames.ts key for key,
// and test/infra/infraConsistency.test.ts fails when the two drift apart.

// Tables of the service (partners, keys, stores, master data, ledger, indexes, results, webhooks).
@export()
var tableNames = {
  partners: 'partners'
  apiKeys: 'apikeys'
  operatorKeys: 'operatorkeys'
  storeRegistrations: 'storeregistrations'
  stores: 'stores'
  products: 'products'
  productIds: 'productids'
  modifierGroups: 'modifiergroups'
  mappings: 'mappings'
  batchLedger: 'batchledger'
  tradeRecords: 'traderecords'
  tradeRecordHomes: 'traderecordhomes'
  dailyCloses: 'dailycloses'
  reconciliations: 'reconciliations'
  paymentDirections: 'paymentdirections'
  rateLimits: 'ratelimits'
  unmappedUsage: 'unmappedusage'
  paymentTypeUsage: 'paymenttypeusage'
  pendingBatches: 'pendingbatches'
  failedBatches: 'failedbatches'
  reportStoreDays: 'reportstoredays'
  storeDaysWriters: 'storedayswriters'
  webhooks: 'webhooks'
  webhookEvents: 'webhookevents'
  webhookDeadLetters: 'webhookdeadletters'
}

// Blob containers of the service: the exact bytes of every accepted push.
@export()
var containerNames = {
  rawBatches: 'raw-batches'
}

// Queues the service sends to and triggers on.
@export()
var queueNames = {
  reconcile: 'reconcile-requests'
  webhookDeliveries: 'webhook-deliveries'
  closedDayReruns: 'closed-day-reruns'
}

// Where the Functions host moves a message after its fifth failed dequeue (queue name + "-poison"). Created up front so operators can watch them.
@export()
var poisonQueueNames = {
  reconcile: 'reconcile-requests-poison'
  webhookDeliveries: 'webhook-deliveries-poison'
  closedDayReruns: 'closed-day-reruns-poison'
}
