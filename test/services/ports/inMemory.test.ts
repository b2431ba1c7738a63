import { describe } from 'vitest';
import { InMemoryApiKeys } from '../../support/memory/InMemoryApiKeys.js';
import { InMemoryDayCloses } from '../../support/memory/InMemoryDayCloses.js';
import { InMemoryLedger } from '../../support/memory/InMemoryLedger.js';
import { InMemoryMappingPointers } from '../../support/memory/InMemoryMappingPointers.js';
import { InMemoryOperatorKeyStore } from '../../support/memory/InMemoryOperatorKeyStore.js';
import { InMemoryPartners } from '../../support/memory/InMemoryPartners.js';
import { InMemoryPendingBatches } from '../../support/memory/InMemoryPendingBatches.js';
import { InMemoryPaymentDirections } from '../../support/memory/InMemoryPaymentDirections.js';
import { InMemoryProductIds } from '../../support/memory/InMemoryProductIds.js';
import { InMemoryProductMasterData } from '../../support/memory/InMemoryProductMasterData.js';
import { InMemoryQueue } from '../../support/memory/InMemoryQueue.js';
import { InMemoryRateLimiter } from '../../support/memory/InMemoryRateLimiter.js';
import { InMemoryRawBatches } from '../../support/memory/InMemoryRawBatches.js';
import { InMemoryReconciliations } from '../../support/memory/InMemoryReconciliations.js';
import { InMemoryReportFiles } from '../../support/memory/InMemoryReportFiles.js';
import { InMemoryReportFragments } from '../../support/memory/InMemoryReportFragments.js';
import { InMemoryReportStoreDays } from '../../support/memory/InMemoryReportStoreDays.js';
import { InMemoryStoreMasterData } from '../../support/memory/InMemoryStoreMasterData.js';
import { InMemoryStoreRegistrations } from '../../support/memory/InMemoryStoreRegistrations.js';
import { InMemoryTradeRecords } from '../../support/memory/InMemoryTradeRecords.js';
import { InMemoryStoreDaysWriters } from '../../support/memory/InMemoryStoreDaysWriters.js';
import { InMemoryUnmappedCodes } from '../../support/memory/InMemoryUnmappedCodes.js';
import { InMemoryUsedPaymentTypes } from '../../support/memory/InMemoryUsedPaymentTypes.js';
import { InMemoryWebhookDeadLetters } from '../../support/memory/InMemoryWebhookDeadLetters.js';
import { InMemoryWebhookEndpointHealth } from '../../support/memory/InMemoryWebhookEndpointHealth.js';
import { InMemoryWebhookEvents } from '../../support/memory/InMemoryWebhookEvents.js';
import { InMemoryWebhookRegistrations } from '../../support/memory/InMemoryWebhookRegistrations.js';
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
import { InMemoryTradeRecordHomes } from '../../support/memory/InMemoryTradeRecordHomes.js';
import { uncommittedBatchesSuite } from './suites/uncommittedBatchesSuite.js';
import { storeDaysWritersSuite } from './suites/storeDaysWritersSuite.js';
import { unmappedCodesSuite } from './suites/unmappedCodesSuite.js';
import { usedPaymentTypesSuite } from './suites/usedPaymentTypesSuite.js';
import { webhookDeadLettersSuite } from './suites/webhookDeadLettersSuite.js';
import { webhookEndpointHealthSuite } from './suites/webhookEndpointHealthSuite.js';
import { webhookEventsSuite } from './suites/webhookEventsSuite.js';
import { webhookRegistrationsSuite } from './suites/webhookRegistrationsSuite.js';

// The in-memory implementations that unit tests of services use pass the same suites as storage.
const fresh =
  <T>(make: () => T) =>
  () =>
    Promise.resolve(make());

describe('in memory', () => {
  describe('ApiKeys', () => {
    apiKeysSuite(fresh(() => new InMemoryApiKeys()));
  });
  describe('Partners', () => {
    partnersSuite(fresh(() => new InMemoryPartners()));
  });
  describe('StoreRegistrations', () => {
    storeRegistrationsSuite(fresh(() => new InMemoryStoreRegistrations()));
  });
  describe('StoreMasterData', () => {
    storeMasterDataSuite(fresh(() => new InMemoryStoreMasterData()));
  });
  describe('ProductMasterData', () => {
    productMasterDataSuite(fresh(() => new InMemoryProductMasterData()));
  });
  describe('ProductIds', () => {
    productIdsSuite(fresh(() => new InMemoryProductIds()));
  });
  describe('Ledger', () => {
    ledgerSuite(fresh(() => new InMemoryLedger()));
  });
  describe('PendingBatches', () => {
    pendingBatchesSuite(fresh(() => new InMemoryPendingBatches()));
  });
  describe('StoreDaysWriters', () => {
    storeDaysWritersSuite(fresh(() => new InMemoryStoreDaysWriters()));
  });
  describe('RawBatches', () => {
    rawBatchesSuite(fresh(() => new InMemoryRawBatches()));
  });
  describe('TradeRecords', () => {
    tradeRecordsSuite(fresh(() => new InMemoryTradeRecords()));
  });
  describe('TradeRecordHomes', () => {
    tradeRecordHomesSuite(fresh(() => new InMemoryTradeRecordHomes()));
  });
  describe('DayCloses', () => {
    dayClosesSuite(fresh(() => new InMemoryDayCloses()));
  });
  describe('Reconciliations', () => {
    reconciliationsSuite(fresh(() => new InMemoryReconciliations()));
  });
  describe('PaymentDirections', () => {
    paymentDirectionsSuite(fresh(() => new InMemoryPaymentDirections()));
  });
  describe('UnmappedCodes', () => {
    unmappedCodesSuite(fresh(() => new InMemoryUnmappedCodes()));
  });
  describe('UsedPaymentTypes', () => {
    usedPaymentTypesSuite(fresh(() => new InMemoryUsedPaymentTypes()));
  });
  describe('MappingPointers', () => {
    mappingPointersSuite(fresh(() => new InMemoryMappingPointers()));
  });
  describe('RateLimiter', () => {
    rateLimiterSuite(fresh(() => new InMemoryRateLimiter()));
  });
  describe('MessageQueue', () => {
    messageQueueSuite(
      fresh(() => {
        const queue = new InMemoryQueue<{ partnerId: string; n: number }>();
        // Time does not pass in memory: only undelayed messages are visible.
        const visibleNow = () => Promise.resolve(queue.sent.filter((s) => s.visibilityDelaySeconds === 0).map((s) => s.message));
        return { queue, visibleNow };
      }),
    );
  });
  describe('WebhookRegistrations', () => {
    webhookRegistrationsSuite(fresh(() => new InMemoryWebhookRegistrations()));
  });
  describe('WebhookEndpointHealth', () => {
    webhookEndpointHealthSuite(fresh(() => new InMemoryWebhookEndpointHealth()));
  });
  describe('WebhookEvents', () => {
    webhookEventsSuite(fresh(() => new InMemoryWebhookEvents()));
  });
  describe('WebhookDeadLetters', () => {
    webhookDeadLettersSuite(fresh(() => new InMemoryWebhookDeadLetters()));
  });
  describe('ReportFragments', () => {
    reportFragmentsSuite(fresh(() => new InMemoryReportFragments()));
  });
  describe('ReportFiles', () => {
    reportFilesSuite(
      fresh(() => {
        const files = new InMemoryReportFiles();
        return { files, read: (name: string) => files.read(name) };
      }),
    );
  });
  describe('ReportStoreDays', () => {
    reportStoreDaysSuite(fresh(() => new InMemoryReportStoreDays()));
  });
  describe('OperatorKeyStore', () => {
    operatorKeyStoreSuite(fresh(() => new InMemoryOperatorKeyStore()));
  });
  describe('UncommittedBatches', () => {
    uncommittedBatchesSuite(
      fresh(() => {
        const ledger = new InMemoryLedger();
        // The in-memory ledger lists its own entries: nothing else to note.
        return { ledger, listing: ledger, received: () => Promise.resolve(), failing: () => Promise.resolve() };
      }),
    );
  });
});
