import type { HqEndpoint } from '../HqEndpoint.js';

/** PUT /hq/v1/partners/{partner_id}/payment-directions (admin): like `hq payment-type set-direction`. */
export const putPaymentDirection: HqEndpoint = async ({ request, hq, readBody }) => {
  hq.validator.query('none', request.query);
  const body = await readBody('paymentDirection');
  const partnerId = request.params.partner_id ?? '';
  await hq.admin.setPaymentDirection(partnerId, body.payment_type, body.direction);
  return { status: 200, body: { partner_id: partnerId, payment_type: body.payment_type, direction: body.direction } };
};
