/**
 * Small building blocks shared by the HTTP tests: a partner with its store master uploaded,
 * fresh batch ids, and waiting for a store-day's reconciliation to finish.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Store, TradeRecordBatch } from '../../src/domain/model/payloads.js';
import { buildJpyStore, buildMappingBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { buildTradeRecordBatch, type BatchOptions } from '../fixtures/tradeRecordFixtures.js';
import {
  ackOf,
  errorOf,
  errorPaths,
  finishedReconciliation,
  reconciliationOf,
  type FinishedReconciliation,
  type ReconciliationResult,
  type TestResponse,
} from './responseBodies.js';
import { eventually, type TestPartner, type TestService } from './startTestService.js';

export const usdStore = 'NYC-0001';
export const jpyStore = 'TYO-0001';

/** A partner with NYC-0001 (USD) and TYO-0001 (JPY) registered and their store master uploaded. */
export async function partnerWithStores(
  service: TestService,
  options: { mapping?: boolean; registeredAt?: Date | undefined } = {},
): Promise<TestPartner> {
  const partner = await service.createPartner({ stores: [usdStore, jpyStore], registeredAt: options.registeredAt });
  const stores: Store[] = [buildUsdStore(usdStore), buildJpyStore(jpyStore)];
  const put = await service.call(partner, 'PUT', 'stores', { batch_id: randomUUID(), stores });
  expect(put.status).toBe(202);
  if (options.mapping) {
    const mapping = await service.call(partner, 'PUT', 'mappings/transaction-types', { ...buildMappingBatch(), batch_id: randomUUID() });
    expect(mapping.status).toBe(202);
  }
  return partner;
}

/** A valid trade-records batch with a fresh batch_id (USD, NYC-0001, 3 records unless told). */
export function tradeBatch(options: BatchOptions = {}): TradeRecordBatch {
  return buildTradeRecordBatch({ batchId: randomUUID(), ...options });
}

/** Reads a store-day's result until reconciliation finished (status MATCHED or MISMATCHED). */
export async function reconciled(
  service: TestService,
  partner: TestPartner,
  storeId: string,
  businessDate: string,
): Promise<FinishedReconciliation> {
  const response = await eventually(
    () => service.call(partner, 'GET', `daily-close/${storeId}/${businessDate}`),
    (r) => r.status !== 200 || isFinished(reconciliationOf(r)),
  );
  expect(response.status).toBe(200);
  const result = reconciliationOf(response);
  expect(['MATCHED', 'MISMATCHED']).toContain(result.status);
  return finishedReconciliation(result);
}

function isFinished(result: ReconciliationResult): boolean {
  return result.status === 'MATCHED' || result.status === 'MISMATCHED';
}

/** Expects a 400 INVALID_PAYLOAD whose details name `path`. */
export function expectInvalid(response: TestResponse, path: string): void {
  expect(response.status).toBe(400);
  expect(errorOf(response).code).toBe('INVALID_PAYLOAD');
  expect(errorPaths(response)).toContain(path);
}

/** The warning codes of a push answer, in order. */
export function warningCodes(response: TestResponse): string[] {
  return ackOf(response).warnings.map((w) => w.code);
}

export { randomUUID as newBatchId };
