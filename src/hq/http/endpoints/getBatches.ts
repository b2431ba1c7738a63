import { decodeContinuation, encodeContinuation } from '../continuationToken.js';
import type { HqEndpoint } from '../HqEndpoint.js';

/** GET /hq/v1/batches?state=pending|failed: batches that are not committed. */
export const getBatches: HqEndpoint = async ({ request, hq }) => {
  const query = hq.validator.query('batches', request.query);
  const after = decodeContinuation(request, query.continuation, ['pk', 'rk']);
  // Existence after every check of the query (docs/hq-api.md, order of checks).
  await hq.directory.requireFilterPartner(query.partner_id);
  const page = await hq.batches.page(query.state, {
    partnerId: query.partner_id,
    limit: query.limit,
    after: after && { partitionKey: after.pk, rowKey: after.rk },
  });
  return {
    status: 200,
    body: {
      items: page.items,
      continuation: encodeContinuation(request, page.next && { pk: page.next.partitionKey, rk: page.next.rowKey }),
    },
  };
};
