import type { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import type { AppServices } from '../services/AppServices.js';
import type { Partner } from '../storage/PartnerRepository.js';
import type { AnonymousEndpoint, Endpoint } from './Endpoint.js';
import { toErrorResponse } from './toErrorResponse.js';

/**
 * Route template (for the access log, never the URL with its values) and the endpoint: one that
 * needs the partner resolved from `x-functions-key` first (every endpoint but health), or an
 * anonymous one.
 */
export type HttpHandlerOptions = { readonly route: string } & (
  { readonly authenticate: true; readonly endpoint: Endpoint } | { readonly authenticate: false; readonly endpoint: AnonymousEndpoint }
);

/**
 * The thin adapter around every HTTP endpoint: resolves the partner, runs the endpoint, turns any
 * error into the catalogue's response, and writes one access-log line per request
 * (method, route, status, ms, partner, batch_id; never the key or the body).
 */
export function createHttpHandler(services: AppServices, options: HttpHandlerOptions): HttpHandler {
  return async (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
    const started = performance.now();
    let partner: Partner | undefined;
    let batchId: string | undefined;
    let response: HttpResponseInit;
    try {
      let result;
      if (options.authenticate) {
        partner = await services.authenticator.authenticate(request.headers.get('x-functions-key'));
        result = await options.endpoint({ request, services, partner });
      } else {
        result = await options.endpoint({ request, services });
      }
      batchId = result.batchId;
      response =
        result.contentType === undefined
          ? { status: result.status, jsonBody: result.body, headers: result.headers ?? {} }
          : { status: result.status, body: String(result.body), headers: { ...result.headers, 'Content-Type': result.contentType } };
    } catch (error) {
      const { response: errorResponse, unexpected } = toErrorResponse(error);
      if (unexpected) context.error(`${request.method} /${options.route} failed: ${describe(error)}`);
      response = errorResponse;
    }
    const ms = Math.round(performance.now() - started);
    context.info(
      `${request.method} /${options.route} ${response.status} ${ms}ms partner=${partner?.partnerId ?? '-'} batch_id=${batchId ?? '-'}`,
    );
    return response;
  };
}

/** Error class and message only: SDK messages name operations, never request bodies or keys. */
function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.split('\n')[0]?.slice(0, 300)}`;
  return typeof error;
}
