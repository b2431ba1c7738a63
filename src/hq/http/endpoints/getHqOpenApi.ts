import { hqOpenApiDocument } from '../../../openapi/hqApi.js';
import type { HqFunctionDefinition } from '../hqFunctions.js';
import type { HqEndpoint } from '../HqEndpoint.js';

/**
 * GET /hq/v1/openapi.json: the HQ API's OpenAPI 3.1 document, behind the operator key like every
 * HQ route. Built on the first call (it reads the schemas) and kept for the process's life.
 * `functions` is a thunk because the HQ route table lists this endpoint too.
 */
export function getHqOpenApi(functions: () => readonly HqFunctionDefinition[]): HqEndpoint {
  let document: Record<string, unknown> | undefined;
  return ({ request, hq }) => {
    hq.validator.query('none', request.query);
    document ??= hqOpenApiDocument(functions());
    return Promise.resolve({ status: 200, body: document });
  };
}
