import { routeStoreId } from '../../../http/routeStoreId.js';
import type { StoreRegistrationStatus } from '../../../storage/StoreRegistrationRepository.js';
import type { HqEndpoint } from '../HqEndpoint.js';

/** POST /hq/v1/partners/{partner_id}/stores/{store_id}/retire | reactivate (admin): like `hq store retire|reactivate`. */
export function postStoreStatus(status: StoreRegistrationStatus): HqEndpoint {
  return async ({ request, hq, readBody }) => {
    hq.validator.query('none', request.query);
    await readBody('empty');
    const partnerId = request.params.partner_id ?? '';
    const registration = await hq.admin.setStoreStatus(partnerId, routeStoreId(request), status);
    return { status: 200, body: await hq.directory.storeBody(partnerId, registration) };
  };
}
