import type { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import { ApiError } from '../../errors/ApiError.js';
import { toErrorResponse } from '../../http/toErrorResponse.js';
import type { HqServices } from '../HqServices.js';
import type { Operator } from '../services/OperatorAuthenticator.js';
import type { HqAccess, HqEndpoint } from './HqEndpoint.js';

/**
 * The thin adapter around every HQ API endpoint: resolves the operator from its key (401, or 403
 * for a partner key), checks the role (403 for a viewer on an admin action), runs the endpoint,
 * turns any error into the catalogue's response in the one shared place, and writes one access-log
 * line (method, route template, status, ms, operator; never the key, the query or the body).
 */
export function createHqHandler(hq: HqServices, options: { route: string; access: HqAccess; endpoint: HqEndpoint }): HttpHandler {
  return async (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
    const started = performance.now();
    let operator: Operator | undefined;
    let response: HttpResponseInit;
    try {
      operator = await hq.authenticator.authenticate(request.headers.get('x-functions-key'));
      if (options.access === 'admin' && operator.role !== 'admin') throw new ApiError('ADMIN_ROLE_REQUIRED');
      const result = await options.endpoint({ request, hq, operator });
      response = { status: result.status, jsonBody: result.body };
    } catch (error) {
      const { response: errorResponse, unexpected } = toErrorResponse(error);
      if (unexpected) context.error(`${request.method} /${options.route} failed: ${describe(error)}`);
      response = errorResponse;
    }
    const ms = Math.round(performance.now() - started);
    context.info(`${request.method} /${options.route} ${response.status} ${ms}ms operator=${operator?.name ?? '-'}`);
    return response;
  };
}

/** Error class and message only: SDK messages name operations, never request bodies or keys. */
function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message.split('\n')[0]?.slice(0, 300)}`;
  return typeof error;
}
