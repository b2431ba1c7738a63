import { randomUUID } from 'node:crypto';
import type { TableClient } from '@azure/data-tables';
import { describe } from 'vitest';
import { ApiKeyRepository } from '../../../src/storage/ApiKeyRepository.js';
import { BatchLedger } from '../../../src/storage/BatchLedger.js';
import { BatchLedgerListing } from '../../../src/storage/BatchLedgerListing.js';
import { DayCloseRepository } from '../../../src/storage/DayCloseRepository.js';
import { JsonQueue } from '../../../src/storage/JsonQueue.js';
import { MappingRepository } from '../../../src/storage/MappingRepository.js';
import { OperatorKeyRepository } from '../../../src/storage/OperatorKeyRepository.js';
import { PartnerRepository } from '../../../src/storage/PartnerRepository.js';
import { PendingBatchIndex, type PendingBatch } from '../../../src/storage/PendingBatchIndex.js';
import { PaymentDirectionRepository } from '../../../src/storage/PaymentDirectionRepository.js';
import { PaymentTypeUsageRepository } from '../../../src/storage/PaymentTypeUsageRepository.js';
import { ProductIdRepository } from '../../../src/storage/ProductIdRepository.js';
import { ProductRepository } from '../../../src/storage/ProductRepository.js';
import { RawBatchStore } from '../../../src/storage/RawBatchStore.js';
import { ReconciliationRepository } from '../../../src/storage/ReconciliationRepository.js';
import { ReportFragmentStore } from '../../../src/storage/ReportFragmentStore.js';
import { ReportStore } from '../../../src/storage/ReportStore.js';
import { ReportStoreDayRepository } from '../../../src/storage/ReportStoreDayRepository.js';
import { isNotFound } from '../../../src/storage/storageErrors.js';
import { StoreMasterRepository } from '../../../src/storage/StoreMasterRepository.js';
import { StoreRegistrationRepository } from '../../../src/storage/StoreRegistrationRepository.js';
import { TableRateLimiter } from '../../../src/storage/TableRateLimiter.js';
import { TradeRecordIndex } from '../../../src/storage/TradeRecordIndex.js';
import { FailedBatchIndex } from '../../../src/storage/FailedBatchIndex.js';
import { StoreDaysWriterTable } from '../../../src/storage/StoreDaysWriterTable.js';
import { UnmappedUsageRepository } from '../../../src/storage/UnmappedUsageRepository.js';
import { WebhookDeadLetterRepository } from '../../../src/storage/WebhookDeadLetterRepository.js';
import { WebhookEndpointHealthRepository } from '../../../src/storage/WebhookEndpointHealthRepository.js';
import { WebhookEventStore } from '../../../src/storage/WebhookEventStore.js';
import { WebhookRegistrationRepository } from '../../../src/storage/WebhookRegistrationRepository.js';
import { azuriteContainer, azuriteQueue, azuriteTable } from '../../support/azuriteClients.js';
import { apiKeysSuite } from './suites/apiKeysSuite.js';
import { dayClosesSuite } from './suites/dayClosesSuite.js';
import { ledgerSuite } from './suites/ledgerSuite.js';
import { mappingPointersSuite } from './suites/mappingPointersSuite.js';
import { messageQueueSuite } from './suites/messageQueueSuite.js';
import { operatorKeyStoreSuite } from './suites/operatorKeyStoreSuite.js';
import { partnersSuite } from './suites/partnersSuite.js';
import { pendingBatchesSuite } from './suites/pendingBatchesSuite.js';
import { paymentDirectionsSuite } from './suites/paymentDirectionsSuite.js';
import { productIdsSuite } from './suites/productIdsSuite.js';
import { productMasterDataSuite } from './suites/productMasterDataSuite.js';
import { rateLimiterSuite } from './suites/rateLimiterSuite.js';
import { rawBatchesSuite } from './suites/rawBatchesSuite.js';
import { reconciliationsSuite } from './suites/reconciliationsSuite.js';
import { reportFilesSuite } from './suites/reportFilesSuite.js';
import { reportFragmentsSuite } from './suites/reportFragmentsSuite.js';
import { reportStoreDaysSuite } from './suites/reportStoreDaysSuite.js';
import { storeMasterDataSuite } from './suites/storeMasterDataSuite.js';
import { storeRegistrationsSuite } from './suites/storeRegistrationsSuite.js';
import { tradeRecordHomesSuite } from './suites/tradeRecordHomesSuite.js';
import { tradeRecordsSuite } from './suites/tradeRecordsSuite.js';
import { TradeRecordHomeTable } from '../../../src/storage/TradeRecordHomeTable.js';
import { uncommittedBatchesSuite } from './suites/uncommittedBatchesSuite.js';
import { storeDaysWritersSuite } from './suites/storeDaysWritersSuite.js';
import { unmappedCodesSuite } from './suites/unmappedCodesSuite.js';
import { usedPaymentTypesSuite } from './suites/usedPaymentTypesSuite.js';
import { webhookDeadLettersSuite } from './suites/webhookDeadLettersSuite.js';
import { webhookEndpointHealthSuite } from './suites/webhookEndpointHealthSuite.js';
import { webhookEventsSuite } from './suites/webhookEventsSuite.js';
import { webhookRegistrationsSuite } from './suites/webhookRegistrationsSuite.js';

/** A storage name of its own for this file's run (tests inside keep apart by partner id). */
const uniqueName = (): string => `t${randomUUID().replace(/-/g, '').slice(0, 20)}`;

/** One table per implementation, created on first use and shared by its tests. */
function onTable<T>(build: (table: TableClient) => T | Promise<T>): () => Promise<T> {
  const table = (async () => azuriteTable(uniqueName()))();
  // Awaited by every test that uses it; this only keeps an unused table from reporting a rejection.
  table.catch(() => undefined);
  return async () => build(await table);
}

describe('on Table, Blob and Queue Storage (Azurite)', () => {
  describe('ApiKeys', () => {
    apiKeysSuite(onTable((t) => new ApiKeyRepository(t)));
  });
  describe('Partners', () => {
    partnersSuite(onTable((t) => new PartnerRepository(t)));
  });
  describe('StoreRegistrations', () => {
    storeRegistrationsSuite(onTable((t) => new StoreRegistrationRepository(t)));
  });
  describe('StoreMasterData', () => {
    storeMasterDataSuite(onTable((t) => new StoreMasterRepository(t)));
  });
  describe('ProductMasterData', () => {
    const groups = onTable((t) => t);
    productMasterDataSuite(onTable(async (t) => new ProductRepository(t, await groups())));
  });
  describe('ProductIds', () => {
    productIdsSuite(onTable((t) => new ProductIdRepository(t)));
  });
  describe('Ledger', () => {
    ledgerSuite(onTable((t) => new BatchLedger(t)));
  });
  describe('PendingBatches', () => {
    pendingBatchesSuite(onTable((t) => new PendingBatchIndex(t)));
  });
  describe('StoreDaysWriters', () => {
    storeDaysWritersSuite(onTable((t) => new StoreDaysWriterTable(t)));
  });
  describe('RawBatches', () => {
    rawBatchesSuite(async () => new RawBatchStore(await azuriteContainer(uniqueName())));
  });
  describe('TradeRecords', () => {
    tradeRecordsSuite(onTable((t) => new TradeRecordIndex(t)));
  });
  describe('TradeRecordHomes', () => {
    tradeRecordHomesSuite(onTable((t) => new TradeRecordHomeTable(t)));
  });
  describe('DayCloses', () => {
    dayClosesSuite(onTable((t) => new DayCloseRepository(t)));
  });
  describe('Reconciliations', () => {
    reconciliationsSuite(onTable((t) => new ReconciliationRepository(t)));
  });
  describe('PaymentDirections', () => {
    paymentDirectionsSuite(onTable((t) => new PaymentDirectionRepository(t)));
  });
  describe('UnmappedCodes', () => {
    unmappedCodesSuite(onTable((t) => new UnmappedUsageRepository(t)));
  });
  describe('UsedPaymentTypes', () => {
    usedPaymentTypesSuite(onTable((t) => new PaymentTypeUsageRepository(t)));
  });
  describe('MappingPointers', () => {
    mappingPointersSuite(onTable((t) => new MappingRepository(t)));
  });
  describe('RateLimiter', () => {
    rateLimiterSuite(onTable((t) => new TableRateLimiter(t)));
  });
  describe('MessageQueue', () => {
    messageQueueSuite(async () => {
      const client = await azuriteQueue(uniqueName());
      const queue = new JsonQueue<{ partnerId: string; n: number }>(client);
      const visibleNow = async () => {
        const { receivedMessageItems } = await client.receiveMessages({ numberOfMessages: 32 });
        // The Functions queue trigger decodes base64 JSON by default: the text must be exactly that.
        return receivedMessageItems.map((m) => JSON.parse(Buffer.from(m.messageText, 'base64').toString('utf8')) as unknown);
      };
      return { queue, visibleNow };
    });
  });
  describe('WebhookRegistrations', () => {
    webhookRegistrationsSuite(onTable((t) => new WebhookRegistrationRepository(t)));
  });
  describe('WebhookEndpointHealth', () => {
    webhookEndpointHealthSuite(onTable((t) => new WebhookEndpointHealthRepository(t)));
  });
  describe('WebhookEvents', () => {
    webhookEventsSuite(onTable((t) => new WebhookEventStore(t)));
  });
  describe('WebhookDeadLetters', () => {
    webhookDeadLettersSuite(onTable((t) => new WebhookDeadLetterRepository(t)));
  });
  describe('ReportFragments', () => {
    reportFragmentsSuite(async () => new ReportFragmentStore(await azuriteContainer(uniqueName())));
  });
  describe('ReportFiles', () => {
    reportFilesSuite(async () => {
      const container = await azuriteContainer(uniqueName());
      const read = async (name: string) => {
        try {
          return await container.getBlockBlobClient(name).downloadToBuffer();
        } catch (error) {
          if (isNotFound(error)) return undefined;
          throw error;
        }
      };
      return { files: new ReportStore(container), read };
    });
  });
  describe('ReportStoreDays', () => {
    reportStoreDaysSuite(onTable((t) => new ReportStoreDayRepository(t)));
  });
  describe('OperatorKeyStore', () => {
    operatorKeyStoreSuite(onTable((t) => new OperatorKeyRepository(t)));
  });
  describe('UncommittedBatches', () => {
    uncommittedBatchesSuite(
      onTable(async (t) => {
        const [pending, failed] = await Promise.all([azuriteTable(uniqueName()), azuriteTable(uniqueName())]);
        return {
          ledger: new BatchLedger(t),
          listing: new BatchLedgerListing(t, { pending, failed }),
          received: (batch: PendingBatch) => new PendingBatchIndex(pending).add(batch),
          failing: (batch: PendingBatch) => new FailedBatchIndex(failed).add(batch),
        };
      }),
    );
  });
});
