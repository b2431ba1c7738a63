import { describe, expectTypeOf, it } from 'vitest';
import type * as Console from '../../console/src/api/hqTypes.js';
import type { Diagnosis } from '../../src/domain/reconciliation/diagnose.js';
import type { BatchBody } from '../../src/hq/services/BatchList.js';
import type { DeadLetterListBody } from '../../src/hq/services/DeadLetterList.js';
import type { KeyBody, PartnerBody, PartnerDirectory, StoreBody } from '../../src/hq/services/PartnerDirectory.js';
import type { ComparisonRow, DayBatchBody, StoreDayDetailBody } from '../../src/hq/services/StoreDayDetail.js';
import type { GridCell, GridPage, GridRow } from '../../src/hq/services/StoreDayGrid.js';
import type { SalesGroup } from '../../src/services/reports/SalesQuery.js';
import type { UnmappedCode } from '../../src/services/reports/UnmappedQuery.js';
import type { WebhookFailure } from '../../src/services/webhooks/WebhookFailureQuery.js';

type PaymentDirectionItem = Awaited<ReturnType<PartnerDirectory['listPaymentDirections']>>['items'][number];

/**
 * The console is bundled for the browser on its own, so it states the HQ API's shapes itself
 * (console/src/api/hqTypes.ts). Each must accept what the service builds: a field the service may
 * leave null, or drop, is one the console must expect so. Checked by the type check `npm test` runs.
 */
describe("the console's HQ API types", () => {
  it('accept every body the service builds', () => {
    expectTypeOf<GridCell>().toExtend<Console.GridDay>();
    expectTypeOf<GridRow>().toExtend<Console.GridRow>();
    expectTypeOf<GridPage['counts']>().toExtend<Console.StatusCounts>();
    expectTypeOf<ComparisonRow>().toExtend<Console.ComparisonRow>();
    expectTypeOf<Diagnosis>().toExtend<Console.Diagnosis>();
    expectTypeOf<DayBatchBody>().toExtend<Console.DayBatch>();
    expectTypeOf<StoreDayDetailBody>().toExtend<Console.StoreDay>();
    expectTypeOf<BatchBody>().toExtend<Console.UncommittedBatch>();
    expectTypeOf<WebhookFailure>().toExtend<Console.WebhookFailure>();
    expectTypeOf<DeadLetterListBody>().toExtend<Console.WebhookFailureList>();
    expectTypeOf<PartnerBody>().toExtend<Console.Partner>();
    expectTypeOf<StoreBody>().toExtend<Console.RegisteredStore>();
    expectTypeOf<KeyBody>().toExtend<Console.PartnerKey>();
    expectTypeOf<PaymentDirectionItem>().toExtend<Console.PaymentDirection>();
    expectTypeOf<SalesGroup>().toExtend<Console.SalesItem>();
    expectTypeOf<UnmappedCode>().toExtend<Console.UnmappedItem>();
  });
});
