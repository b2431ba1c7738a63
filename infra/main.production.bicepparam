// Production environment: higher scale-out ceiling, zone-redundant storage for the raw batches
// (the durable source of truth), longer restore and log retention windows.
using 'main.bicep'

param prefix = 'posprod'
param environmentName = 'production'
param maximumInstanceCount = 100
param httpPerInstanceConcurrency = 16
param reconcileDelaySeconds = 900
param rateLimitPerMinute = 600
param maxTransactionsPerStoreDay = 100000
param maxBatchesPerStoreDay = 2000
param batchSweepDelaySeconds = 300
param partnerCacheSeconds = 30
param maxRequestBytesInFlight = 67108864
param reportsContainerName = 'reports'
// HQ's reverse domain followed by .pos; the same in every environment, since partners code against it.
// Replace the placeholder before the first deployment partners use: it can never change afterwards.
param eventTypePrefix = 'com.example.pos'
param storageSkuName = 'Standard_ZRS'
param blobSoftDeleteDays = 30
param logRetentionDays = 90
// HQ operations' mailbox for alerts (replace with the real one before deploying).
param alertEmailAddress = 'pos-alerts@example.com'
param reconciliationLagAlertSeconds = 1800
