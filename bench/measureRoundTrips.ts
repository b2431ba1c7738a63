import type { QueueClient } from '@azure/storage-queue';
import { ReconciliationRepository } from '../src/storage/ReconciliationRepository.js';
import { expectAccepted, type BenchEnvironment } from './BenchEnvironment.js';
import { benchBusinessDate } from './benchBusinessDate.js';
import { BatchTemplate } from './BatchTemplate.js';
import type { BenchScale } from './benchScale.js';
import type { RoundTripChain } from './LatencyProxy.js';
import { dailyClose } from './dailyClose.js';
import { emptyDayTotals, generateTradeRecordBatch } from './tradeRecordGenerator.js';

export interface RoundTripsResult {
  readonly push: RoundTripChain;
  readonly close: RoundTripChain;
}

/**
 * Through the latency proxy: the longest chain of storage round trips waited on one after another
 * by a warm push of a new batch, and by a warm daily close (the partner has closed a day before).
 * Requests still running when the answer arrived were not waited on and are not counted.
 */
export async function measureRoundTrips(env: BenchEnvironment, scale: BenchScale): Promise<RoundTripsResult> {
  const proxy = env.proxy;
  if (!proxy) throw new Error('round trips are counted by the latency proxy (profile azure)');
  const stores = ['RTT-0001', 'RTT-0002'];
  const partner = await env.createPartner('bench-rtt', stores);
  const results = new ReconciliationRepository(env.service.services.storage.tables.reconciliations);
  const template = new BatchTemplate({
    storeId: 'RTT-0001',
    businessDate: benchBusinessDate,
    recordCount: scale.recordsPerBatch,
    seed: 13,
  });
  expectAccepted(await env.send(partner, 'POST', 'trade-records', template.render(0x30000)), 'warm-up push');
  await proxy.idle();
  proxy.reset();
  expectAccepted(await env.send(partner, 'POST', 'trade-records', template.render(0x30001)), 'push');
  const push = proxy.chain();

  // One day closed to warm up, then the counted close of another store's day.
  let close: RoundTripChain | undefined;
  for (const [i, storeId] of stores.entries()) {
    const totals = emptyDayTotals();
    const tag = (0x31000 + i).toString(16).padStart(8, '0');
    const body = generateTradeRecordBatch({
      batchId: `${tag}-0000-4000-8000-000000000000`,
      storeId,
      businessDate: benchBusinessDate,
      batchSeq: 1,
      recordCount: Math.min(20, scale.recordsPerBatch),
      idPrefix: `T-${tag}`,
      seed: 0x31000 + i,
      totals,
    });
    expectAccepted(await env.send(partner, 'POST', 'trade-records', JSON.stringify(body)), 'push before close');
    const closeBody = dailyClose(`${tag}-0000-4000-8000-00000000c105`, storeId, 1, totals);
    await proxy.idle();
    proxy.reset();
    expectAccepted(await env.send(partner, 'POST', 'daily-close', JSON.stringify(closeBody)), 'daily-close');
    close = proxy.chain();
    // The close's reconciliation runs a moment later (then writes the day's report files); its
    // requests must not fall into the next count.
    await reconciled(results, partner.partnerId, storeId);
    await queueEmpty(env.service.services.storage.queues.reconcile);
  }
  if (!close) throw new Error('no close was counted');
  return { push, close };
}

/** The reconcile message is deleted once its handler is done, report files included. */
async function queueEmpty(queue: QueueClient): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await queue.getProperties()).approximateMessagesCount !== 0) {
    if (Date.now() > deadline) throw new Error('the reconcile queue did not empty within a minute');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function reconciled(results: ReconciliationRepository, partnerId: string, storeId: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const record = await results.get(partnerId, storeId, benchBusinessDate);
    if (record && record.status !== 'RECEIVED') return;
    if (Date.now() > deadline) throw new Error('the close was not reconciled within a minute');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
