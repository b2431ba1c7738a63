/**
 * Small building blocks shared by the HTTP tests: a partner with its store master uploaded,
 * fresh batch ids, and waiting for a store-day's reconciliation to finish.
 */
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { Store } from '../../src/domain/model/payloads.js';
import { buildJpyStore, buildMappingBatch, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { buildTradeRecordBatch, type BatchOptions } from '../fixtures/tradeRecordFixtures.js';
import { eventually, type TestPartner, type TestService } from './startTestService.js';

export const usdStore = 'NYC-0001';
export const jpyStore = 'TYO-0001';

/** A partner with NYC-0001 (USD) and TYO-0001 (JPY) registered and their store master uploaded. */
export async function partnerWithStores(service: TestService, options: { mapping?: boolean } = {}): Promise<TestPartner> {
  const partner = await service.createPartner({ stores: [usdStore, jpyStore] });
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
export function tradeBatch(options: BatchOptions = {}): any {
  return buildTradeRecordBatch({ batchId: randomUUID(), ...options });
}

/** Reads a store-day's result until reconciliation finished (status MATCHED or MISMATCHED). */
export async function reconciled(service: TestService, partner: TestPartner, storeId: string, businessDate: string): Promise<any> {
  const result = await eventually(
    () => service.call(partner, 'GET', `daily-close/${storeId}/${businessDate}`),
    (r) => r.status !== 200 || r.body.status === 'MATCHED' || r.body.status === 'MISMATCHED',
  );
  expect(result.status).toBe(200);
  expect(['MATCHED', 'MISMATCHED']).toContain(result.body.status);
  return result.body;
}

/** The warning codes of an acknowledgement, in order. */
export function warningCodes(ack: { warnings: { code: string }[] }): string[] {
  return ack.warnings.map((w) => w.code);
}

export { randomUUID as newBatchId };
