import type { HttpRequest } from '@azure/functions';
import { describe, expect, it } from 'vitest';
import { BodyBudget } from '../../src/http/BodyBudget.js';
import { readJsonBody } from '../../src/http/readJsonBody.js';
import { deferred } from '../support/deferred.js';

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

  it('gives back what an abandoned body holds at once, though its stream never settles, and takes nothing after', async () => {
    // A body that declares 4,000 bytes, sends 100 and then neither ends nor fails. The stream asks
    // for more once the reader has taken those 100 bytes: the read is then waiting on the body.
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const waitingForMore = deferred();
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        c.enqueue(new Uint8Array(100));
      },
      pull() {
        waitingForMore.resolve();
      },
    });
    const request = {
      headers: new Headers({ 'content-type': 'application/json', 'content-length': '4000' }),
      body,
    } as unknown as HttpRequest;
    const budget = new BodyBudget(10_000, 5_000);
    const abandon = new AbortController();
    const reading = readJsonBody(request, 10_000, budget.forPartner('p'), undefined, abandon.signal);
    const settled = reading.then(
      () => 'read',
      () => 'refused',
    );
    await waitingForMore.promise;
    expect(budget.heldBy('p')).toBe(4_000);
    abandon.abort();
    expect(budget.heldBy('p')).toBe(0);
    expect(budget.inUse).toBe(0);
    // Should the stream go on after all, nothing more is held and the read is refused.
    controller?.enqueue(new Uint8Array(5_000));
    controller?.close();
    expect(await settled).toBe('refused');
    expect(budget.inUse).toBe(0);
  });
});
