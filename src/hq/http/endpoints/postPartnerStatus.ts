import type { PartnerStatus } from '../../../storage/PartnerRepository.js';
import type { HqEndpoint } from '../HqEndpoint.js';

/** POST /hq/v1/partners/{partner_id}/deactivate | activate (admin): like `hq partner deactivate|activate`. */
export function postPartnerStatus(status: PartnerStatus): HqEndpoint {
  return async ({ request, hq, readBody }) => {
    hq.validator.query('none', request.query);
    await readBody('empty');
    const partner = await hq.admin.setStatus(request.params.partner_id ?? '', status);
    return { status: 200, body: hq.directory.partnerBody(partner) };
  };
}
