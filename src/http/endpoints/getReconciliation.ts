import type { Endpoint } from '../Endpoint.js';
import { routeStoreId } from '../routeStoreId.js';

/** GET /daily-close/{store_id}/{business_date} (contract §4.4). */
export const getReconciliation: Endpoint = async ({ request, services, partner }) => {
  const body = await services.reconciliationQuery.get(partner.partnerId, routeStoreId(request), request.params.business_date ?? '');
  return { status: 200, body };
};
