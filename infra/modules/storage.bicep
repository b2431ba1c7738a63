// Storage account of the service: raw batch blobs, HQ report files, every table and queue (with its poison queue),
// the container the Flex Consumption plan deploys the app package from, and the data-plane roles
// the app's managed identity needs. Shared-key access is off: everything authenticates with Entra ID.

// Compile-time import of the shared names: needs Bicep 0.25.3 or newer (az bicep upgrade).
import { tableNames, containerNames, queueNames, poisonQueueNames } from 'storageNames.bicep'

@description('Name of the storage account (3-24 lowercase letters and digits).')
@minLength(3)
@maxLength(24)
param storageAccountName string

@description('Azure region of the storage account.')
param location string

@description('Tags applied to the storage account.')
param tags object

@description('Replication of the storage account.')
@allowed([
  'Standard_LRS'
  'Standard_ZRS'
  'Standard_GRS'
  'Standard_GZRS'
])
param skuName string

@description('Blob container the Flex Consumption plan reads the app package from.')
param deploymentContainerName string

@description('Blob container of the HQ report files (Parquet), written by the app and read by the analytics tools of HQ.')
param reportsContainerName string

@description('Days a deleted blob (raw batch or app package) can still be restored.')
@minValue(1)
@maxValue(365)
param blobSoftDeleteDays int

@description('Days after its last write a staged report fragment (under _state/fragments/ of the reports container) is deleted.')
@minValue(1)
@maxValue(3650)
param reportFragmentRetentionDays int

@description('Principal (object) id of the managed identity the function app runs as.')
param principalId string

// Built-in data-plane roles granted to the app identity on this account.
var roleDefinitionIds = {
  storageBlobDataOwner: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b'
  storageQueueDataContributor: '974c5e8b-45b9-4653-ba55-5f855dd0fb88'
  storageTableDataContributor: '0a9a7e1f-b9d0-4cc4-a60d-0319b160aaa3'
}

resource account 'Microsoft.Storage/storageAccounts@2023-05-01' = {
  name: storageAccountName
  location: location
  tags: tags
  kind: 'StorageV2'
  sku: {
    name: skuName
  }
  properties: {
    accessTier: 'Hot'
    minimumTlsVersion: 'TLS1_2'
    supportsHttpsTrafficOnly: true
    allowBlobPublicAccess: false
    allowSharedKeyAccess: false
    defaultToOAuthAuthentication: true
    allowCrossTenantReplication: false
    publicNetworkAccess: 'Enabled'
    networkAcls: {
      defaultAction: 'Allow'
      bypass: 'AzureServices'
    }
  }
}

resource blobService 'Microsoft.Storage/storageAccounts/blobServices@2023-05-01' = {
  parent: account
  name: 'default'
  properties: {
    deleteRetentionPolicy: {
      enabled: true
      days: blobSoftDeleteDays
    }
    containerDeleteRetentionPolicy: {
      enabled: true
      days: blobSoftDeleteDays
    }
  }
}

resource serviceContainers 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = [
  for container in items(containerNames): {
    parent: blobService
    name: container.value
    properties: {
      publicAccess: 'None'
    }
  }
]

resource deploymentContainer 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = {
  parent: blobService
  name: deploymentContainerName
  properties: {
    publicAccess: 'None'
  }
}

resource reportsContainer 'Microsoft.Storage/storageAccounts/blobServices/containers@2023-05-01' = {
  parent: blobService
  name: reportsContainerName
  properties: {
    publicAccess: 'None'
  }
}

// Report fragments are a cache of the raw batches (src/storage/ReportFragmentStore.ts): kept while
// their days are still being closed and corrected, then deleted by storage itself. Report files,
// store-day markers and raw batches are not matched by the prefix.
resource lifecycle 'Microsoft.Storage/storageAccounts/managementPolicies@2023-05-01' = {
  parent: account
  name: 'default'
  properties: {
    policy: {
      rules: [
        {
          name: 'expire-report-fragments'
          enabled: true
          type: 'Lifecycle'
          definition: {
            filters: {
              blobTypes: [
                'blockBlob'
              ]
              prefixMatch: [
                '${reportsContainerName}/_state/fragments/'
              ]
            }
            actions: {
              baseBlob: {
                delete: {
                  daysAfterModificationGreaterThan: reportFragmentRetentionDays
                }
              }
            }
          }
        }
      ]
    }
  }
}

resource tableService 'Microsoft.Storage/storageAccounts/tableServices@2023-05-01' = {
  parent: account
  name: 'default'
}

resource tables 'Microsoft.Storage/storageAccounts/tableServices/tables@2023-05-01' = [
  for table in items(tableNames): {
    parent: tableService
    name: table.value
  }
]

resource queueService 'Microsoft.Storage/storageAccounts/queueServices@2023-05-01' = {
  parent: account
  name: 'default'
}

resource queues 'Microsoft.Storage/storageAccounts/queueServices/queues@2023-05-01' = [
  for queue in items(queueNames): {
    parent: queueService
    name: queue.value
  }
]

resource poisonQueues 'Microsoft.Storage/storageAccounts/queueServices/queues@2023-05-01' = [
  for queue in items(poisonQueueNames): {
    parent: queueService
    name: queue.value
  }
]

resource roleAssignments 'Microsoft.Authorization/roleAssignments@2022-04-01' = [
  for role in items(roleDefinitionIds): {
    name: guid(account.id, principalId, role.value)
    scope: account
    properties: {
      roleDefinitionId: subscriptionResourceId('Microsoft.Authorization/roleDefinitions', role.value)
      principalId: principalId
      principalType: 'ServicePrincipal'
    }
  }
]

@description('Resource id of the storage account.')
output id string = account.id

@description('Name of the storage account.')
output name string = account.name

@description('Blob service endpoint (ends with a slash).')
output blobServiceUri string = account.properties.primaryEndpoints.blob

@description('Queue service endpoint (ends with a slash).')
output queueServiceUri string = account.properties.primaryEndpoints.queue

@description('Table service endpoint (ends with a slash).')
output tableServiceUri string = account.properties.primaryEndpoints.table

@description('URL of the container the app package is deployed to.')
output deploymentContainerUrl string = '${account.properties.primaryEndpoints.blob}${deploymentContainerName}'
