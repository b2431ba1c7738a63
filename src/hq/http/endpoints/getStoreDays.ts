import { decodeContinuation, encodeContinuation } from '../continuationToken.js';
import type { HqEndpoint } from '../HqEndpoint.js';

/** GET /hq/v1/store-days: the reconciliation grid, one page of stores. */
export const getStoreDays: HqEndpoint = async ({ request, hq }) => {
  const query = hq.validator.query('storeDays', request.query);
  const after = decodeContinuation(request, query.continuation, ['p', 's']);
  const page = await hq.grid.page({
    from: query.from,
    to: query.to,
    partnerId: query.partner_id,
    status: query.status,
    overdue: query.overdue,
    limit: query.limit,
    after: after && { partnerId: after.p, storeId: after.s },
  });
  return {
    status: 200,
    body: {
      from: query.from,
      to: query.to,
      generated_at: page.generatedAt,
      counts: page.counts,
      items: page.items,
      continuation: encodeContinuation(request, page.next && { p: page.next.partnerId, s: page.next.storeId }),
    },
  };
};
