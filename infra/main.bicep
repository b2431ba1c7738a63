// POS Ingestion Service: one environment (test or production) in one resource group.
// Function app on the Flex Consumption plan (Linux, Node.js 22) running as a user-assigned
// managed identity; storage, Application Insights and the deployment package are all reached with
// that identity, so no key or connection string with a secret is stored anywhere.

targetScope = 'resourceGroup'

@description('Short lowercase name prefix for every resource (letters and digits, 2-9 characters), e.g. "posing".')
@minLength(2)
@maxLength(9)
param prefix string

@description('Environment this deployment serves; used in tags only.')
@allowed([
  'test'
  'production'
])
param environmentName string

@description('Azure region of every resource. Must offer the Flex Consumption plan (az functionapp list-flexconsumption-locations).')
param location string = resourceGroup().location

// Scale: one instance handles httpPerInstanceConcurrency requests at once. 16 keeps a 2048 MB
// instance safe even when every request is a 5 MB push (each holds its body and the parsed batch,
// and MAX_REQUEST_BYTES_IN_FLIGHT bounds the bodies held at once); more requests bring more
// instances. The ceiling bounds what storage sees: every push is ~20 storage requests and one
// storage account takes about 20,000 per second, so 100 instances stay well inside it.
@description('Upper bound of instances the app scales out to (the plan accepts 40 to 1000).')
@minValue(40)
@maxValue(1000)
param maximumInstanceCount int = 40

@description('Concurrent HTTP requests one instance handles before the platform adds another.')
@minValue(1)
@maxValue(1000)
param httpPerInstanceConcurrency int = 16

@description('Seconds between the receipt of a daily close and its reconciliation (RECONCILE_DELAY_SECONDS). At least host.json\'s functionTimeout: a push that looked for the close just before it arrived is still writing its rows for at most that long, and the close\'s run must find them. At most an hour (the service refuses more): the contract says about 15 minutes.')
@minValue(300)
@maxValue(3600)
param reconcileDelaySeconds int = 900

@description('Default number of /trade-records requests a partner may make per minute, when HQ has set no limit of its own (RATE_LIMIT_PER_MINUTE).')
@minValue(1)
param rateLimitPerMinute int = 600

@description('Transactions one store and business date may receive, summed over its batches that did not fail (MAX_TRANSACTIONS_PER_STORE_DAY). Bounds what one reconciliation of the day lists and builds.')
@minValue(1)
param maxTransactionsPerStoreDay int = 100000

@description('Transaction batches one store and business date may receive, failed ones included (MAX_BATCHES_PER_STORE_DAY). Every push lists them to count the day.')
@minValue(1)
param maxBatchesPerStoreDay int = 2000

@description('Age in seconds after which the timer sweep finishes a push that was never committed (BATCH_SWEEP_DELAY_SECONDS).')
@minValue(1)
param batchSweepDelaySeconds int = 300

@description('Seconds an instance keeps what it read about a caller: key → partner, partner status and rate limit, store registrations and currencies (PARTNER_CACHE_SECONDS). A revoked key or a deactivated partner stops working within this time; 0 reads them on every request.')
@minValue(0)
@maxValue(60)
param partnerCacheSeconds int = 30

@description('Blob container of the HQ report files (Hive-partitioned Parquet read by DuckDB, Spark, Synapse and Fabric) (REPORTS_CONTAINER). Kept apart from the raw batches so read access can be granted to it alone.')
@minLength(3)
@maxLength(63)
param reportsContainerName string = 'reports'

@description('Reverse-DNS prefix of the event types sent to partners, e.g. "com.contoso.pos" gives "com.contoso.pos.reconciliation.completed" (EVENT_TYPE_PREFIX). Partners code against the type names: use the same value in every environment.')
@minLength(3)
@maxLength(100)
param eventTypePrefix string

@description('Replication of the storage account that holds raw batches, tables and queues. Standard_ZRS is not offered in every region: use Standard_LRS (or GRS) there.')
@allowed([
  'Standard_LRS'
  'Standard_ZRS'
  'Standard_GRS'
  'Standard_GZRS'
])
param storageSkuName string = 'Standard_LRS'

@description('Days a deleted blob can still be restored.')
@minValue(1)
@maxValue(365)
param blobSoftDeleteDays int = 7

@description('Days after its last write a staged report fragment is deleted. A fragment is a cache of its raw batch: a day reconciled again later converts its batches again.')
@minValue(1)
@maxValue(3650)
param reportFragmentRetentionDays int = 45

@description('Days Log Analytics keeps logs and telemetry.')
@minValue(30)
@maxValue(730)
param logRetentionDays int = 30

@description('E-mail address of HQ operations: alerts on webhook dead letters, failed batches, poison messages, mismatched days and reconciliation lag go there.')
param alertEmailAddress string

@description('Seconds a reconciliation may run behind its due time before HQ is alerted.')
@minValue(60)
param reconciliationLagAlertSeconds int = 1800

@description('Request body bytes one instance holds at once; a body that does not fit gets a retryable 503 (MAX_REQUEST_BYTES_IN_FLIGHT). With 2048 MB instances, 64 MB leaves room for parsing and storing them.')
@minValue(5242880)
param maxRequestBytesInFlight int = 67108864

// The contract's body limit (5 MB); not an environment choice.
var maxRequestBodyBytes = 5242880
// The host's own limit, the host's default written out (so the local host uses the same), far above
// the contract's: the host answers a declared body over it with a bare 500, which a client retries
// (its HTTP trigger binding fails on Kestrel's "request body too large", azure-functions-host#10519),
// so every body a POS could plausibly send too large must reach the service, which answers its
// JSON 413 PAYLOAD_TOO_LARGE. The host buffers such a body (on disk past 30 KB) before the worker
// sees it.
var hostRequestBodySizeLimit = 104857600

var suffix = uniqueString(resourceGroup().id)
var compactPrefix = toLower(replace(prefix, '-', ''))
var names = {
  identity: '${prefix}-id-${suffix}'
  logAnalytics: '${prefix}-log-${suffix}'
  appInsights: '${prefix}-appi-${suffix}'
  plan: '${prefix}-plan-${suffix}'
  functionApp: '${prefix}-func-${suffix}'
  storageAccount: take('${compactPrefix}st${suffix}', 24)
  deploymentContainer: 'app-package'
}
var tags = {
  service: 'pos-ingestion'
  environment: environmentName
}

// Built-in role that lets the identity send telemetry to Application Insights with Entra ID auth.
var monitoringMetricsPublisherRoleId = '3913510d-42f4-4e42-8a64-420c390055eb'

resource identity 'Microsoft.ManagedIdentity/userAssignedIdentities@2023-01-31' = {
  name: names.identity
  location: location
  tags: tags
}

module storage 'modules/storage.bicep' = {
  name: 'storage'
  params: {
    storageAccountName: names.storageAccount
    location: location
    tags: tags
    skuName: storageSkuName
    deploymentContainerName: names.deploymentContainer
    reportsContainerName: reportsContainerName
    blobSoftDeleteDays: blobSoftDeleteDays
    reportFragmentRetentionDays: reportFragmentRetentionDays
    principalId: identity.properties.principalId
  }
}

resource logAnalytics 'Microsoft.OperationalInsights/workspaces@2023-09-01' = {
  name: names.logAnalytics
  location: location
  tags: tags
  properties: {
    sku: {
      name: 'PerGB2018'
    }
    retentionInDays: logRetentionDays
  }
}

resource appInsights 'Microsoft.Insights/components@2020-02-02' = {
  name: names.appInsights
  location: location
  tags: tags
  kind: 'web'
  properties: {
    Application_Type: 'web'
    WorkspaceResourceId: logAnalytics.id
    // Telemetry is accepted only from callers authenticated with Entra ID (the app identity).
    DisableLocalAuth: true
  }
}

module alerts 'modules/alerts.bicep' = {
  name: 'alerts'
  params: {
    namePrefix: prefix
    location: location
    tags: tags
    appInsightsId: appInsights.id
    alertEmailAddress: alertEmailAddress
    reconciliationLagAlertSeconds: reconciliationLagAlertSeconds
  }
}

resource metricsPublisher 'Microsoft.Authorization/roleAssignments@2022-04-01' = {
  name: guid(appInsights.id, identity.id, monitoringMetricsPublisherRoleId)
  scope: appInsights
  properties: {
    roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', monitoringMetricsPublisherRoleId)
    principalId: identity.properties.principalId
    principalType: 'ServicePrincipal'
  }
}

resource plan 'Microsoft.Web/serverfarms@2024-11-01' = {
  name: names.plan
  location: location
  tags: tags
  kind: 'functionapp'
  sku: {
    name: 'FC1'
    tier: 'FlexConsumption'
  }
  properties: {
    // Linux.
    reserved: true
  }
}

resource functionApp 'Microsoft.Web/sites@2024-11-01' = {
  name: names.functionApp
  location: location
  tags: tags
  kind: 'functionapp,linux'
  identity: {
    type: 'UserAssigned'
    userAssignedIdentities: {
      '${identity.id}': {}
    }
  }
  properties: {
    serverFarmId: plan.id
    httpsOnly: true
    publicNetworkAccess: 'Enabled'
    siteConfig: {
      minTlsVersion: '1.2'
      scmMinTlsVersion: '1.2'
      ftpsState: 'Disabled'
      appSettings: [
        // Storage used by the Functions host and by the service itself: identity-based, no keys.
        {
          name: 'AzureWebJobsStorage__blobServiceUri'
          value: storage.outputs.blobServiceUri
        }
        {
          name: 'AzureWebJobsStorage__queueServiceUri'
          value: storage.outputs.queueServiceUri
        }
        {
          name: 'AzureWebJobsStorage__tableServiceUri'
          value: storage.outputs.tableServiceUri
        }
        {
          name: 'AzureWebJobsStorage__credential'
          value: 'managedidentity'
        }
        {
          name: 'AzureWebJobsStorage__clientId'
          value: identity.properties.clientId
        }
        // Telemetry, sent with the app identity (local authentication is disabled).
        {
          name: 'APPLICATIONINSIGHTS_CONNECTION_STRING'
          value: appInsights.properties.ConnectionString
        }
        {
          name: 'APPLICATIONINSIGHTS_AUTHENTICATION_STRING'
          value: 'ClientId=${identity.properties.clientId};Authorization=AAD'
        }
        // Tunables: every one is set explicitly; the app refuses to start without them.
        {
          name: 'RECONCILE_DELAY_SECONDS'
          value: string(reconcileDelaySeconds)
        }
        {
          name: 'MAX_REQUEST_BODY_BYTES'
          value: string(maxRequestBodyBytes)
        }
        {
          name: 'RATE_LIMIT_PER_MINUTE'
          value: string(rateLimitPerMinute)
        }
        {
          name: 'MAX_TRANSACTIONS_PER_STORE_DAY'
          value: string(maxTransactionsPerStoreDay)
        }
        {
          name: 'MAX_BATCHES_PER_STORE_DAY'
          value: string(maxBatchesPerStoreDay)
        }
        {
          name: 'BATCH_SWEEP_DELAY_SECONDS'
          value: string(batchSweepDelaySeconds)
        }
        {
          name: 'PARTNER_CACHE_SECONDS'
          value: string(partnerCacheSeconds)
        }
        {
          name: 'REPORTS_CONTAINER'
          value: reportsContainerName
        }
        {
          name: 'EVENT_TYPE_PREFIX'
          value: eventTypePrefix
        }
        {
          name: 'MAX_REQUEST_BYTES_IN_FLIGHT'
          value: string(maxRequestBytesInFlight)
        }
        // Read by the Functions host itself.
        {
          name: 'FUNCTIONS_REQUEST_BODY_SIZE_LIMIT'
          value: string(hostRequestBodySizeLimit)
        }
        // The host's page at `/` would announce the runtime to anyone; the service has no page there.
        {
          name: 'AzureWebJobsDisableHomepage'
          value: 'true'
        }
        // WEBHOOK_ALLOW_PRIVATE_TARGETS is deliberately absent: webhook targets in Azure are public https
        // addresses only, and the app refuses to start with the setting on managed-identity storage.
      ]
    }
    functionAppConfig: {
      deployment: {
        storage: {
          type: 'blobContainer'
          value: storage.outputs.deploymentContainerUrl
          authentication: {
            type: 'UserAssignedIdentity'
            userAssignedIdentityResourceId: identity.id
          }
        }
      }
      scaleAndConcurrency: {
        maximumInstanceCount: maximumInstanceCount
        // Sized with the service's per-instance bounds: MAX_REQUEST_BYTES_IN_FLIGHT, and at most 12
        // reconciliations at once (src/services/maxConcurrentReconciliations.ts). Revisit both if this changes.
        instanceMemoryMB: 2048
        triggers: {
          http: {
            perInstanceConcurrency: httpPerInstanceConcurrency
          }
        }
      }
      runtime: {
        name: 'node'
        version: '22'
      }
    }
  }
  // The app starts once its data roles exist (the storage module creates them). Azure may still
  // take a few minutes to make new role assignments effective: until then the first start of a new
  // environment logs 403s from storage and the host retries on its own.
  dependsOn: [
    metricsPublisher
    storage
  ]
}

@description('Name of the function app (for publishing the code and setting partner host keys).')
output functionAppName string = functionApp.name

@description('Base URL partners call: every route lives below it.')
output baseUrl string = 'https://${functionApp.properties.defaultHostName}/pos/v1'

@description('Base URL of the HQ API, for HQ scripts and BI tools (operator keys).')
output hqBaseUrl string = 'https://${functionApp.properties.defaultHostName}/hq/v1'

@description('The HQ console, at the host name Azure gave the app: a new app may get one with a unique suffix rather than <name>.azurewebsites.net.')
output consoleUrl string = 'https://${functionApp.properties.defaultHostName}/console/'

@description('Blob container of the HQ report files, below the blob service endpoint.')
output reportsContainerName string = reportsContainerName

@description('Name of the storage account.')
output storageAccountName string = storage.outputs.name

@description('Table service endpoint, for running the HQ tool against this environment.')
output tableServiceUri string = storage.outputs.tableServiceUri

@description('Blob service endpoint, for running the HQ tool against this environment.')
output blobServiceUri string = storage.outputs.blobServiceUri

@description('Queue service endpoint, for running the HQ tool against this environment.')
output queueServiceUri string = storage.outputs.queueServiceUri
