import type { Endpoint } from '../Endpoint.js';
import { readJsonBody } from '../readJsonBody.js';

/** An answer holding the signing secret must not be kept by any cache on the way. */
const noStore = { 'Cache-Control': 'no-store' };

/** PUT /webhook: 201 with the secret on the first registration, 200 without it on a replace. */
export const putWebhook: Endpoint = async ({ request, services, partner, confirmCaller }) => {
  const read = await readJsonBody(request, services.config.maxRequestBodyBytes, services.bodyBudget.forPartner(partner.partnerId));
  try {
    // A key revoked while the body arrived must not register an address (or learn a secret).
    await confirmCaller();
    const { created, body } = await services.webhooks.register(partner.partnerId, read.bytes);
    return { status: created ? 201 : 200, body, headers: noStore };
  } finally {
    read.release();
  }
};

/** GET /webhook: the endpoint without its secret. */
export const getWebhook: Endpoint = async ({ services, partner }) => ({
  status: 200,
  body: await services.webhooks.get(partner.partnerId),
});

/** DELETE /webhook: 204; events not yet delivered are dropped. */
export const deleteWebhook: Endpoint = async ({ services, partner }) => {
  await services.webhooks.remove(partner.partnerId);
  return { status: 204, body: undefined };
};

/** POST /webhook/rotate-secret: the new secret, this once; the old one keeps signing for 24 hours. */
export const rotateWebhookSecret: Endpoint = async ({ services, partner }) => ({
  status: 200,
  body: await services.webhooks.rotateSecret(partner.partnerId),
  headers: noStore,
});
