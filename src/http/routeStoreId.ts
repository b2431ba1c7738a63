import type { HttpRequest } from '@azure/functions';

/**
 * The `{store_id}` of a route. The host's web server (Kestrel) decodes every escape of a path but
 * `%2F`, which would split the segment: a store id with a `/`, sent as `A%2FB`, reaches the
 * function as `A%2FB`, and only here becomes `A/B`. An id holding the text `%2F` itself cannot be
 * told apart from one with a slash once the host decoded its `%25`; the decoding favours the slash.
 */
export function routeStoreId(request: Pick<HttpRequest, 'params'>): string {
  return (request.params.store_id ?? '').replace(/%2F/gi, '/');
}
