import type { PartnerStatus } from '../../../storage/PartnerRepository.js';
import { readHqBody } from '../readHqBody.js';
import type { HqEndpoint } from '../HqEndpoint.js';

/** POST /hq/v1/partners/{partner_id}/deactivate | activate (admin): like `hq partner deactivate|activate`. */
export function postPartnerStatus(status: PartnerStatus): HqEndpoint {
  return async ({ request, hq }) => {
    hq.validator.query('none', request.query);
    await readHqBody(request, hq.validator, 'empty');
    const partner = await hq.admin.setStatus(request.params.partner_id ?? '', status);
    return { status: 200, body: hq.directory.partnerBody(partner) };
  };
}
