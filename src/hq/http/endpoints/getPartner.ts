import type { HqEndpoint } from '../HqEndpoint.js';

/** GET /hq/v1/partners/{partner_id} */
export const getPartner: HqEndpoint = async ({ request, hq }) => {
  hq.validator.query('none', request.query);
  return { status: 200, body: await hq.directory.getPartner(request.params.partner_id ?? '') };
};
