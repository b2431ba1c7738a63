import type { HqEndpoint } from '../HqEndpoint.js';

/** GET /hq/v1/webhook-failures: dead-lettered webhook deliveries, newest first. */
export const getWebhookFailures: HqEndpoint = async ({ request, hq }) => {
  const query = hq.validator.query('webhookFailures', request.query);
  return { status: 200, body: await hq.deadLetters.list({ partnerId: query.partner_id, limit: query.limit }) };
};
