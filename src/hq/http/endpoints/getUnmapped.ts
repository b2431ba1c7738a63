import { decodeContinuation, encodeContinuation } from '../continuationToken.js';
import type { HqEndpoint } from '../HqEndpoint.js';

/** GET /hq/v1/unmapped: codes held back from the sales data, one page. */
export const getUnmapped: HqEndpoint = async ({ request, hq }) => {
  const query = hq.validator.query('unmapped', request.query);
  const after = decodeContinuation(request, query.continuation, ['p', 'c']);
  // Existence after every check of the query (docs/hq-api.md, order of checks).
  await hq.directory.requireFilterPartner(query.partner_id);
  const page = await hq.reports.unmappedPage({ partnerId: query.partner_id, limit: query.limit, after: after && [after.p, after.c] });
  const next = page.next;
  return {
    status: 200,
    body: { items: page.items, continuation: encodeContinuation(request, next && { p: next[0] ?? '', c: next[1] ?? '' }) },
  };
};
