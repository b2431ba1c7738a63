import { decodeContinuation, encodeContinuation } from '../continuationToken.js';
import type { HqEndpoint } from '../HqEndpoint.js';
import type { HqServices } from '../../HqServices.js';
import type { ListPage } from '../../services/PartnerDirectory.js';

type PartnerList = (hq: HqServices, partnerId: string, limit: number, after: string | undefined) => Promise<ListPage<unknown>>;

/**
 * GET /hq/v1/partners/{partner_id}/stores | keys | payment-directions: one of the partner's lists,
 * paged. `list` picks the list from the directory.
 */
export function getPartnerList(list: PartnerList): HqEndpoint {
  return async ({ request, hq }) => {
    const query = hq.validator.query('page', request.query);
    const after = decodeContinuation(request, query.continuation, ['a'])?.a;
    const page = await list(hq, request.params.partner_id ?? '', query.limit, after);
    return {
      status: 200,
      body: { items: page.items, continuation: encodeContinuation(request, page.next === undefined ? undefined : { a: page.next }) },
    };
  };
}
