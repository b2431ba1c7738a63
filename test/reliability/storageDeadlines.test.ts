import type { PipelinePolicy, PipelineRequest, PipelineResponse, SendRequest } from '@azure/core-rest-pipeline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/startTestService.js';
import { ackOf, errorOf } from '../support/responseBodies.js';
import { partnerWithStores, tradeBatch } from '../support/httpScenario.js';

/** Storage that stops answering: armed requests wait until their caller gives up. */
class StallPolicy implements PipelinePolicy {
  readonly name = 'stall-storage';
  stallWhen: ((request: PipelineRequest) => boolean) | undefined;
  stalled = 0;

  async sendRequest(request: PipelineRequest, next: SendRequest): Promise<PipelineResponse> {
    if (this.stallWhen?.(request)) {
      this.stalled += 1;
      await new Promise<void>((_, reject) => {
        const signal = request.abortSignal;
        const fail = (): void => {
          const error = new Error('The operation was aborted.');
          error.name = 'AbortError';
          reject(error);
        };
        if (!signal) return; // Never answers: the test fails on its own timeout.
        if (signal.aborted) fail();
        else signal.addEventListener('abort', fail, { once: true });
      });
    }
    return next(request);
  }
}

// Short enough for a quick test, long enough for an emulator on a busy machine to answer the rest.
const deadlines = { tryTimeoutMs: 1_500, callDeadlineMs: 3_000 };

describe('storage that stops answering', () => {
  const stall = new StallPolicy();
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ services: { policy: stall, deadlines } });
  });
  afterAll(async () => {
    await service.stop();
  });

  const steps: [string, (request: PipelineRequest) => boolean][] = [
    ['the ledger entry', (r) => r.method === 'POST' && /\/batchledger\b/.test(r.url)],
    ['the raw blob', (r) => r.method === 'PUT' && r.url.includes('/raw-batches/')],
    ['the index writes', (r) => r.url.includes('$batch') || /\/traderecords\b/.test(r.url)],
    ['the commit', (r) => (r.method === 'PUT' || r.method === 'PATCH') && r.url.includes('/batchledger(')],
  ];

  it.each(steps)(
    'at %s: 503 with Retry-After within the deadline, and the same batch is accepted once storage answers',
    async (_, when) => {
      const partner = await partnerWithStores(service);
      const batch = tradeBatch({ recordCount: 5 });
      stall.stalled = 0;
      stall.stallWhen = when;
      const started = Date.now();
      const refused = await service.call(partner, 'POST', 'trade-records', batch);
      const ms = Date.now() - started;
      stall.stallWhen = undefined;
      expect(stall.stalled).toBeGreaterThan(0);
      expect(refused.status).toBe(503);
      expect(errorOf(refused).code).toBe('SERVICE_UNAVAILABLE');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      // One call's deadline, plus the calls that did answer.
      expect(ms).toBeLessThan(deadlines.callDeadlineMs + 4_000);

      // A busy machine may make an unstalled call miss the short test deadline too: the partner retries.
      const sendRetrying = async () => {
        let answer = await service.call(partner, 'POST', 'trade-records', batch);
        for (let attempt = 0; attempt < 3 && answer.status === 503; attempt += 1) {
          answer = await service.call(partner, 'POST', 'trade-records', batch);
        }
        return answer;
      };
      const retried = await sendRetrying();
      expect([200, 202]).toContain(retried.status);
      expect(retried.body).toMatchObject({ batch_id: batch.batch_id, record_count: 5 });
      const again = await sendRetrying();
      expect(again.status).toBe(200);
      expect(ackOf(again).status).toBe('ALREADY_RECEIVED');
    },
  );
});
