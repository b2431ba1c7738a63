import type { HttpRequest, HttpResponseInit, InvocationContext } from '@azure/functions';
import { StorageError } from '../errors/StorageError.js';
import { stackFramesOf } from '../observability/describeError.js';
import { metricLine } from '../observability/Telemetry.js';
import { toErrorResponse } from './toErrorResponse.js';

/**
 * The catalogue's answer to an error thrown by an endpoint of either API, with the log line its
 * severity calls for: what nobody expected at error level with its stack frames, storage that did
 * not answer as a warning and a `storage_unavailable` figure, a caller that hung up as info. A refused request gets no line here: its access-log
 * line says enough. `describe` says what of the error may be logged (never a body or a key).
 */
export function answerError(
  error: unknown,
  at: { readonly request: HttpRequest; readonly route: string; readonly requestId: string; readonly context: InvocationContext },
  describe: (error: unknown) => string,
): HttpResponseInit {
  const { response, severity } = toErrorResponse(error, at.requestId);
  const where = `${at.request.method} /${at.route} request_id=${at.requestId}`;
  // Nobody expected it: where it was thrown is what the engineer reading the line needs first.
  if (severity === 'unexpected') at.context.error(`${where} failed: ${describe(error)}${stackFramesOf(error)}`);
  else if (severity === 'transient') {
    at.context.warn(`${where} storage unavailable: ${describe(error)}`);
    // Counted, so that storage throttling partners for hours is alerted on rather than found later.
    const storage = error instanceof StorageError ? error : undefined;
    at.context.info(
      metricLine('storage_unavailable', 1, { route: `/${at.route}`, status: storage?.statusCode ?? 'none', code: storage?.code }),
    );
  } else if (severity === 'client-abort') at.context.info(`${where} client abort: the caller closed the connection mid-upload`);
  return response;
}
