import type { FunctionDefinition } from '../../functions/FunctionDefinition.js';
import { partnerOpenApiDocument } from '../../openapi/partnerApi.js';
import type { AnonymousEndpoint } from '../Endpoint.js';

/**
 * GET /pos/v1/openapi.json: anonymous, the partner API's OpenAPI 3.1 document for this app as
 * configured. Built on the first call (it reads the schemas) and kept for the process's life.
 * `functions` is a thunk because the function table lists this endpoint too.
 */
export function getOpenApi(functions: () => readonly FunctionDefinition[]): AnonymousEndpoint {
  let document: Record<string, unknown> | undefined;
  return ({ services }) => {
    document ??= partnerOpenApiDocument(functions(), services.config);
    return Promise.resolve({ status: 200, body: document, headers: { 'Cache-Control': 'no-cache' } });
  };
}
