import type { HqEndpoint } from '../HqEndpoint.js';

/** GET /hq/v1/whoami: the operator and role of the key, so a client can hide what it may not do. */
export const getWhoami: HqEndpoint = ({ request, hq, operator }) => {
  hq.validator.query('none', request.query);
  return Promise.resolve({
    status: 200,
    body: { operator: operator.name, role: operator.role, key_id: operator.keyId, expires_at: operator.expiresAt ?? null },
  });
};
