import type { HttpHandler, HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import type { AppServices, Partner } from '../services/AppServices.js';
import type { AnonymousEndpoint, Endpoint } from './Endpoint.js';
import { withInvocationTelemetry } from '../observability/invocationTelemetry.js';
import { logTelemetry } from '../observability/Telemetry.js';
import { answerRequest } from './answerRequest.js';
import { RefusedCallerError } from '../errors/RefusedCallerError.js';

/**
 * Route template (for the access log, never the URL with its values) and the endpoint: one that
 * needs the partner resolved from `x-functions-key` first (every endpoint but health), or an
 * anonymous one.
 */
export type HttpHandlerOptions = { readonly route: string } & (
  { readonly authenticate: true; readonly endpoint: Endpoint } | { readonly authenticate: false; readonly endpoint: AnonymousEndpoint }
);

/**
 * The thin adapter around every partner API endpoint: resolves the partner, runs the endpoint, and
 * answers through `answerRequest` (error responses, headers, `x-request-id`, the access-log line
 * with the partner, the id of its key and batch_id).
 */
export function createHttpHandler(services: AppServices, options: HttpHandlerOptions): HttpHandler {
  return (request: HttpRequest, context: InvocationContext): Promise<HttpResponseInit> => {
    let partner: Partner | undefined;
    let keyId: string | undefined;
    let batchId: string | undefined;
    let refused: RefusedCallerError | undefined;
    const answer = async (): Promise<HttpResponseInit> => {
      let result;
      if (options.authenticate) {
        const key = request.headers.get('x-functions-key');
        try {
          ({ partner, keyId } = await services.authenticator.authenticate(key));
        } catch (error) {
          // A known key refused (revoked, expired, its partner inactive) is named in the log line.
          if (error instanceof RefusedCallerError) refused = error;
          throw error;
        }
        const caller = partner;
        const confirmCaller = async (): Promise<void> => {
          await services.authenticator.authenticate(key);
        };
        const noteBatchId = (id: string): void => {
          batchId = id;
        };
        result = await withInvocationTelemetry(logTelemetry(context.info.bind(context)), () =>
          options.endpoint({ request, services, partner: caller, confirmCaller, noteBatchId }),
        );
      } else {
        result = await options.endpoint({ request, services });
      }
      batchId = result.batchId ?? batchId;
      return result.contentType === undefined
        ? { status: result.status, jsonBody: result.body, headers: result.headers ?? {} }
        : { status: result.status, body: String(result.body), headers: { ...result.headers, 'Content-Type': result.contentType } };
    };
    return answerRequest(
      request,
      context,
      options.route,
      answer,
      () =>
        `partner=${partner?.partnerId ?? refused?.partnerId ?? '-'} key_id=${keyId ?? refused?.keyId ?? '-'} batch_id=${batchId ?? '-'}`,
    );
  };
}
