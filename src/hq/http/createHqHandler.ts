import { randomUUID } from 'node:crypto';
import type { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import { ApiError } from '../../errors/ApiError.js';
import { answerError } from '../../http/answerError.js';
import { describeError } from '../../observability/describeError.js';
import type { HqServices } from '../HqServices.js';
import type { Operator } from '../services/OperatorAuthenticator.js';
import type { HqAccess, HqEndpoint } from './HqEndpoint.js';

/**
 * The thin adapter around every HQ API endpoint: resolves the operator from its key (401, or 403
 * for a partner key), checks the role (403 for a viewer on an admin action), runs the endpoint,
 * turns any error into the catalogue's response in the one shared place, and writes one access-log
 * line (method, route template, status, ms, operator, request_id; never the key, the query or the
 * body). Like the partner API, every answer carries `x-request-id`, nosniff and no-store.
 */
export function createHqHandler(hq: HqServices, options: { route: string; access: HqAccess; endpoint: HqEndpoint }): HttpHandler {
  return async (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
    const started = performance.now();
    const requestId = context.invocationId || randomUUID();
    let operator: Operator | undefined;
    let response: HttpResponseInit;
    try {
      operator = await hq.authenticator.authenticate(request.headers.get('x-functions-key'));
      if (options.access === 'admin' && operator.role !== 'admin') throw new ApiError('ADMIN_ROLE_REQUIRED');
      const result = await options.endpoint({ request, hq, operator });
      response = { status: result.status, jsonBody: result.body };
    } catch (error) {
      response = answerError(error, { request, route: options.route, requestId, context }, describeError);
    }
    response = { ...response, headers: { ...(response.headers as Record<string, string>), ...responseHeaders, 'x-request-id': requestId } };
    const ms = Math.round(performance.now() - started);
    context.info(
      `${request.method} /${options.route} ${response.status} ${ms}ms operator=${operator?.name ?? '-'} request_id=${requestId}`,
    );
    return response;
  };
}

/** HQ answers name partners and stores: never sniffed as another type, never kept by a cache. */
const responseHeaders = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-store' } as const;
