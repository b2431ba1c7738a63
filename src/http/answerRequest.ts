import { randomUUID } from 'node:crypto';
import type { HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import { describeError } from '../observability/describeError.js';
import { answerError } from './answerError.js';

/**
 * Headers of every answer of either API: no content sniffing of the JSON, and nothing kept by a
 * cache or proxy (answers carry partner data, name partners and stores, and change as batches arrive).
 */
const responseHeaders = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' } as const;

/**
 * What the adapter of every endpoint of either API does around it: runs `answer`, turns whatever
 * it throws into the catalogue's response (`answerError`), adds the headers every answer carries
 * and `x-request-id` (the invocation id, also in error bodies, so HQ can find the request's log
 * lines from what a caller reports), and writes one access-log line: method, route template,
 * status, ms, the adapter's `caller` fields (read once the answer is known; never a key, a query
 * or a body) and request_id.
 */
export async function answerRequest(
  request: HttpRequest,
  context: InvocationContext,
  route: string,
  answer: () => Promise<HttpResponseInit>,
  caller: () => string,
): Promise<HttpResponseInit> {
  const started = performance.now();
  const requestId = context.invocationId || randomUUID();
  let response: HttpResponseInit;
  try {
    response = await answer();
  } catch (error) {
    response = answerError(error, { request, route, requestId, context }, describeError);
  }
  response = { ...response, headers: { ...(response.headers as Record<string, string>), ...responseHeaders, 'x-request-id': requestId } };
  const ms = Math.round(performance.now() - started);
  context.info(`${request.method} /${route} ${response.status} ${ms}ms ${caller()} request_id=${requestId}`);
  return response;
}
