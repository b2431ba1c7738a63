import { randomUUID } from 'node:crypto';
import { HttpRequest, HttpResponse, InvocationContext } from '@azure/functions';
import type { HttpFunctionDefinition } from '../../src/functions/FunctionDefinition.js';
import { functionTable } from '../../src/functions/functionTable.js';
import { RouteTable, decodePathSegments } from '../../src/localhost/RouteTable.js';
import type { AppServices } from '../../src/services/AppServices.js';
import type { TestResponse } from './responseBodies.js';

/** Calls a partner endpoint: same arguments as TestService.call. */
export type EndpointCaller = (
  partner: { readonly key: string } | null,
  method: string,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
) => Promise<TestResponse>;

/**
 * Runs the function table's HTTP handlers in this process: the request is an `HttpRequest` built
 * the way the Functions worker builds one, the response is what the handler returned. No socket,
 * no host in between (so no host key check and no body cap of the host): for tests of what the
 * service decides, where the HTTP transport is not what is being tested.
 */
export function invokeInProcess(services: AppServices): EndpointCaller {
  const routes = new RouteTable<{ definition: HttpFunctionDefinition; handler: ReturnType<HttpFunctionDefinition['createHandler']> }>();
  for (const definition of functionTable) {
    if (definition.trigger === 'http') routes.add(definition.route, { definition, handler: definition.createHandler(services) });
  }
  return async (partner, method, path, body, headers = {}) => {
    // Like TestService.call: a path below the partner API unless it names its API.
    const relative = path.replace(/^\//, '');
    const full = /^(pos|hq)\/v1\//.test(relative) ? relative : `pos/v1/${relative}`;
    const [pathPart = '', query = ''] = full.split('?');
    const segments = decodePathSegments(pathPart) ?? [];
    const match = routes.match(segments).find((m) => m.value.definition.methods.includes(method as never));
    if (!match) throw new Error(`No function serves ${method} ${path}.`);
    const request = new HttpRequest({
      method,
      url: `http://in-process/${pathPart}${query ? `?${query}` : ''}`,
      headers: {
        ...(partner ? { 'x-functions-key': partner.key } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      params: match.params,
      ...(body === undefined ? {} : { body: { string: typeof body === 'string' ? body : JSON.stringify(body) } }),
    });
    const context = new InvocationContext({
      invocationId: randomUUID(),
      functionName: match.value.definition.name,
      logHandler: () => undefined,
    });
    const response = await match.value.handler(request, context);
    // The handlers answer with a plain HttpResponseInit; an HttpResponse is read the same way.
    const answer = response instanceof HttpResponse ? response : new HttpResponse(response);
    const text = await answer.text();
    return { status: answer.status, body: text ? (JSON.parse(text) as unknown) : undefined, headers: new Headers(answer.headers) };
  };
}
