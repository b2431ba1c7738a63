import type { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import { ApiError } from '../../errors/ApiError.js';
import { answerRequest } from '../../http/answerRequest.js';
import type { HqServices } from '../HqServices.js';
import type { Operator } from '../services/OperatorAuthenticator.js';
import type { HqAccess, HqEndpoint } from './HqEndpoint.js';

/**
 * The thin adapter around every HQ API endpoint: resolves the operator from its key (401, or 403
 * for a partner key), checks the role (403 for a viewer on an admin action), runs the endpoint and
 * answers through `answerRequest`, as the partner API does (error responses, nosniff and no-store,
 * `x-request-id`, the access-log line with the operator and the id of its key).
 */
export function createHqHandler(hq: HqServices, options: { route: string; access: HqAccess; endpoint: HqEndpoint }): HttpHandler {
  return (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
    let operator: Operator | undefined;
    const answer = async (): Promise<HttpResponseInit> => {
      operator = await hq.authenticator.authenticate(request.headers.get('x-functions-key'));
      if (options.access === 'admin' && operator.role !== 'admin') throw new ApiError('ADMIN_ROLE_REQUIRED');
      const result = await options.endpoint({ request, hq, operator });
      return { status: result.status, jsonBody: result.body };
    };
    return answerRequest(
      request,
      context,
      options.route,
      answer,
      () => `operator=${operator?.name ?? '-'} key_id=${operator?.keyId ?? '-'}`,
    );
  };
}
