import { decodeContinuation, encodeContinuation } from '../continuationToken.js';
import type { HqEndpoint } from '../HqEndpoint.js';

/** GET /hq/v1/partners */
export const getPartners: HqEndpoint = async ({ request, hq }) => {
  const query = hq.validator.query('page', request.query);
  const page = await hq.directory.listPartners(query.limit, decodeContinuation(request, query.continuation, ['a'])?.a);
  return {
    status: 200,
    body: { items: page.items, continuation: encodeContinuation(request, page.next === undefined ? undefined : { a: page.next }) },
  };
};
