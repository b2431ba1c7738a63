import type { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import { ApiError } from '../../errors/ApiError.js';
import { answerRequest } from '../../http/answerRequest.js';
import type { HqServices } from '../HqServices.js';
import type { Operator } from '../services/OperatorAuthenticator.js';
import type { HqAccess, HqEndpoint } from './HqEndpoint.js';
import type { BodyName, BodyTypes } from './hqSchemas.js';
import { readHqBody } from './readHqBody.js';

/**
 * The thin adapter around every HQ API endpoint: resolves the operator from its key (401, or 403
 * for a partner key), checks the role (403 for a viewer on an admin action) and both again once a
 * body has arrived (`readBody`), runs the endpoint and answers through `answerRequest`, as the
 * partner API does (error responses, nosniff and no-store, `x-request-id`, the access-log line
 * with the operator and the id of its key).
 */
export function createHqHandler(hq: HqServices, options: { route: string; access: HqAccess; endpoint: HqEndpoint }): HttpHandler {
  return (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
    let operator: Operator | undefined;
    // Sets `operator` before the role check, so that the access log names a caller refused for its role.
    const authorise = async (): Promise<Operator> => {
      const caller = await hq.authenticator.authenticate(request.headers.get('x-functions-key'));
      operator = caller;
      if (options.access === 'admin' && caller.role !== 'admin') throw new ApiError('ADMIN_ROLE_REQUIRED');
      return caller;
    };
    const readBody = async <N extends BodyName>(name: N): Promise<BodyTypes[N]> => {
      const body = await readHqBody(request, hq.validator, name);
      await authorise();
      return body;
    };
    const answer = async (): Promise<HttpResponseInit> => {
      const caller = await authorise();
      const result = await options.endpoint({ request, hq, operator: caller, readBody });
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
