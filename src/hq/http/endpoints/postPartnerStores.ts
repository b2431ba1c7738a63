import type { HqEndpoint } from '../HqEndpoint.js';

/** POST /hq/v1/partners/{partner_id}/stores (admin): registers stores, like `hq store register`. */
export const postPartnerStores: HqEndpoint = async ({ request, hq, readBody }) => {
  hq.validator.query('none', request.query);
  const body = await readBody('registerStores');
  const partnerId = request.params.partner_id ?? '';
  const result = await hq.admin.registerStores(partnerId, body.store_ids);
  return { status: 200, body: { partner_id: partnerId, registered: result.registered, already_registered: result.alreadyRegistered } };
};
