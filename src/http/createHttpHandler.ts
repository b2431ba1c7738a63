import { randomUUID } from 'node:crypto';
import type { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import type { AppServices, Partner } from '../services/AppServices.js';
import type { AnonymousEndpoint, Endpoint } from './Endpoint.js';
import { describeError } from '../observability/describeError.js';
import { withInvocationTelemetry } from '../observability/invocationTelemetry.js';
import { logTelemetry } from '../observability/Telemetry.js';
import { answerError } from './answerError.js';

/**
 * Route template (for the access log, never the URL with its values) and the endpoint: one that
 * needs the partner resolved from `x-functions-key` first (every endpoint but health), or an
 * anonymous one.
 */
export type HttpHandlerOptions = { readonly route: string } & (
  { readonly authenticate: true; readonly endpoint: Endpoint } | { readonly authenticate: false; readonly endpoint: AnonymousEndpoint }
);

/**
 * Headers of every answer: no content sniffing of the JSON, and nothing kept by a cache or proxy
 * (answers carry partner data and change as batches arrive).
 */
const responseHeaders = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' } as const;

/**
 * The thin adapter around every HTTP endpoint: resolves the partner, runs the endpoint, turns any
 * error into the catalogue's response, and writes one access-log line per request
 * (method, route, status, ms, partner, batch_id, request_id; never the key or the body).
 * Every answer carries `x-request-id` (the invocation id), also in error bodies, so HQ can find the
 * request's log lines from what the partner reports.
 */
export function createHttpHandler(services: AppServices, options: HttpHandlerOptions): HttpHandler {
  return async (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
    const started = performance.now();
    const requestId = context.invocationId || randomUUID();
    let partner: Partner | undefined;
    let batchId: string | undefined;
    let response: HttpResponseInit;
    try {
      let result;
      if (options.authenticate) {
        partner = await services.authenticator.authenticate(request.headers.get('x-functions-key'));
        const caller = partner;
        result = await withInvocationTelemetry(logTelemetry(context.info.bind(context)), () =>
          options.endpoint({ request, services, partner: caller }),
        );
      } else {
        result = await options.endpoint({ request, services });
      }
      batchId = result.batchId;
      response =
        result.contentType === undefined
          ? { status: result.status, jsonBody: result.body, headers: result.headers ?? {} }
          : { status: result.status, body: String(result.body), headers: { ...result.headers, 'Content-Type': result.contentType } };
    } catch (error) {
      response = answerError(error, { request, route: options.route, requestId, context }, describeError);
    }
    response = { ...response, headers: { ...(response.headers as Record<string, string>), ...responseHeaders, 'x-request-id': requestId } };
    const ms = Math.round(performance.now() - started);
    context.info(
      `${request.method} /${options.route} ${response.status} ${ms}ms partner=${partner?.partnerId ?? '-'} batch_id=${batchId ?? '-'} request_id=${requestId}`,
    );
    return response;
  };
}
