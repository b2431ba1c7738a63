import type { HqEndpoint } from '../HqEndpoint.js';

/** POST /hq/v1/partners/{partner_id}/keys/{key_id}/revoke (admin): like `hq key revoke`. */
export const postRevokeKey: HqEndpoint = async ({ request, hq, readBody }) => {
  hq.validator.query('none', request.query);
  await readBody('empty');
  const key = await hq.admin.revokeKey(request.params.partner_id ?? '', request.params.key_id ?? '');
  return { status: 200, body: hq.directory.keyBody(key) };
};
