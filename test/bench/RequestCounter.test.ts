import { createHttpHeaders, createPipelineRequest, type PipelineResponse } from '@azure/core-rest-pipeline';
import { describe, expect, it } from 'vitest';
import { RequestCounter } from '../../bench/RequestCounter.js';

const ports = { blobPort: 10000, queuePort: 10001, tablePort: 10002 };
const answered = (request: ReturnType<typeof createPipelineRequest>): Promise<PipelineResponse> =>
  Promise.resolve({ request, status: 201, headers: createHttpHeaders() });

describe('RequestCounter', () => {
  it('counts an operation the SDK tries again once, and the extra try as a retry', async () => {
    const counter = new RequestCounter(ports);
    const put = createPipelineRequest({ url: 'http://127.0.0.1:10000/devstoreaccount1/raw-batches/p/b.json', method: 'PUT' });
    // The SDK's retry policy sends the same request object again after a slow or failed try.
    await counter.policy.sendRequest(put, answered);
    await counter.policy.sendRequest(put, answered);
    const other = createPipelineRequest({ url: 'http://127.0.0.1:10000/devstoreaccount1/raw-batches/p/c.json', method: 'PUT' });
    await counter.policy.sendRequest(other, answered);
    expect(counter.snapshot()).toEqual(new Map([['blob PUT raw-batches/<blob>', 2]]));
    expect(counter.retries()).toBe(1);
    counter.reset();
    expect(counter.snapshot()).toEqual(new Map());
    expect(counter.retries()).toBe(0);
  });
});
