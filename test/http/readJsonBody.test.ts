import type { HttpRequest } from '@azure/functions';
import { describe, expect, it } from 'vitest';
import { BodyBudget } from '../../src/http/BodyBudget.js';
import { readJsonBody } from '../../src/http/readJsonBody.js';

/** A JSON request whose body arrives in `chunks`, each pulled by the reader in turn; `pulled` counts them. */
function streamedRequest(chunks: readonly Uint8Array[]): { request: HttpRequest; pulled: () => number } {
  let next = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[next++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(chunk);
    },
  });
  const request = { headers: new Headers({ 'content-type': 'application/json' }), body } as unknown as HttpRequest;
  return { request, pulled: () => next };
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

describe('readJsonBody', () => {
  it("hands the body's head over once, while the rest still arrives", async () => {
    const whole = `{"store_id":"NYC-0001","pad":"${'x'.repeat(5_000)}"}`;
    const bytes = Buffer.from(whole);
    const chunks = Array.from({ length: Math.ceil(bytes.length / 300) }, (_, i) => bytes.subarray(i * 300, (i + 1) * 300));
    const { request, pulled } = streamedRequest(chunks);
    const heads: { head: string; pulledThen: number }[] = [];
    const read = await readJsonBody(request, 10_000, new BodyBudget(10_000), (head) =>
      heads.push({ head: text(head), pulledThen: pulled() }),
    );

    expect(heads).toHaveLength(1);
    // Four chunks of 300 bytes are the first to reach 1,024; the others were not read yet.
    expect(heads[0]?.head).toBe(whole.slice(0, 1_200));
    expect(heads[0]?.pulledThen).toBeLessThan(chunks.length);
    expect(text(read.bytes)).toBe(whole);
  });

  it('hands a body shorter than the head over whole, once it has arrived', async () => {
    const whole = '{"store_id":"NYC-0001","business_date":"2026-03-01"}';
    const { request } = streamedRequest([Buffer.from(whole.slice(0, 10)), Buffer.from(whole.slice(10))]);
    const heads: string[] = [];
    const read = await readJsonBody(request, 10_000, new BodyBudget(10_000), (head) => heads.push(text(head)));
    expect(heads).toEqual([whole]);
    expect(text(read.bytes)).toBe(whole);
  });
});
