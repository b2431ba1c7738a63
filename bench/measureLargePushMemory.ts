import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { BenchScale } from './benchScale.js';
import { serveForLargePushes } from './serveForLargePushes.js';
import { generateTradeRecordBatch } from './tradeRecordGenerator.js';

export interface LargePushMemoryResult {
  readonly pushes: number;
  readonly bodyBytes: number;
  /** Peak RSS of the process running the service (the child's alone when compiled). */
  readonly peakRssMb: number;
  readonly ownProcess: boolean;
  /** How many pushes got each status. */
  readonly statuses: Record<string, number>;
}

/**
 * A body of `bytes` bytes of realistic trade records (more records than one batch may hold, so
 * the service reads and parses all of it, then refuses it with BATCH_TOO_LARGE: what is measured
 * is the memory of reading and parsing large bodies, not of storing them).
 */
function largeBody(bytes: number, seed: number): Buffer {
  const sample = JSON.stringify(
    generateTradeRecordBatch({
      batchId: '00000000-0000-4000-8000-000000000001',
      storeId: 'LRG-1',
      businessDate: '2026-03-01',
      batchSeq: 1,
      recordCount: 50,
      idPrefix: 'LRG',
      seed,
    }),
  );
  const perRecord = sample.length / 50;
  let count = Math.floor(bytes / perRecord);
  for (;;) {
    const text = JSON.stringify(
      generateTradeRecordBatch({
        batchId: `00000000-0000-4000-8000-${String(seed).padStart(12, '0')}`,
        storeId: 'LRG-1',
        businessDate: '2026-03-01',
        batchSeq: 1,
        recordCount: count,
        idPrefix: 'LRG',
        seed,
      }),
    );
    if (text.length <= bytes) return Buffer.from(text);
    count = Math.floor(count * 0.98);
  }
}

/** Sends `scale.largePushes` large pushes at once, spread over the partners, and reads the service's peak RSS. */
export async function measureLargePushMemory(connectionString: string, scale: BenchScale): Promise<LargePushMemoryResult> {
  const bodies = Array.from({ length: scale.largePushes }, (_, i) => largeBody(scale.largePushBytes, 9000 + i));
  const script = path.join(__dirname, 'largePushChild.js');
  const ownProcess = existsSync(script);
  let baseUrl: string;
  let keys: readonly string[];
  let report: () => Promise<number>;
  if (ownProcess) {
    const child = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const next = (): Promise<{ ok: boolean; error?: string; baseUrl?: string; keys?: string[]; maxRssKb?: number }> =>
      new Promise((resolve, reject) => {
        child.once('message', resolve);
        child.once('exit', (code) => {
          reject(new Error(`large-push child exited with code ${code}`));
        });
      });
    child.send({ kind: 'start', connectionString });
    const started = await next();
    if (!started.ok) throw new Error(`large-push child failed: ${started.error}`);
    if (started.baseUrl === undefined || started.keys === undefined) throw new Error('large-push child gave no address or keys');
    baseUrl = started.baseUrl;
    keys = started.keys;
    report = async () => {
      child.send({ kind: 'report' });
      return (await next()).maxRssKb ?? 0;
    };
  } else {
    const service = await serveForLargePushes(connectionString);
    baseUrl = service.baseUrl;
    keys = service.keys;
    report = async () => {
      await service.stop();
      return process.resourceUsage().maxRSS;
    };
  }
  const statuses: Record<string, number> = {};
  await Promise.all(
    bodies.map(async (body, i) => {
      const response = await fetch(`${baseUrl}/trade-records`, {
        method: 'POST',
        headers: { 'x-functions-key': keys[i % keys.length] ?? '', 'content-type': 'application/json' },
        body: new Uint8Array(body),
      });
      await response.arrayBuffer();
      statuses[response.status] = (statuses[response.status] ?? 0) + 1;
    }),
  );
  const maxRssKb = await report();
  return {
    pushes: bodies.length,
    bodyBytes: Math.round(bodies.reduce((sum, b) => sum + b.length, 0) / bodies.length),
    peakRssMb: Math.round(maxRssKb / 1024),
    ownProcess,
    statuses,
  };
}
