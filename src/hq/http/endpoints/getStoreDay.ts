import { routeStoreId } from '../../../http/routeStoreId.js';
import type { HqEndpoint } from '../HqEndpoint.js';

/** GET /hq/v1/store-days/{partner_id}/{store_id}/{business_date}: one store-day in detail. */
export const getStoreDay: HqEndpoint = async ({ request, hq }) => {
  hq.validator.query('none', request.query);
  const { partner_id = '', business_date = '' } = request.params;
  return { status: 200, body: await hq.dayDetail.get(partner_id, routeStoreId(request), business_date) };
};
