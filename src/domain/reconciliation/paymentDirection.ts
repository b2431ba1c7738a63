/**
 * Direction of a payment_type: the factor its amount is multiplied by in payment_total_amount
 * (contract §2.9, §2.11; DESIGN §6).
 */
export type PaymentDirection = 1 | -1 | 0;

/**
 * Directions of the suggested payment_type codes, the same for every partner.
 * DEPOSIT_APPLIED is 0: the money was counted when the deposit was taken.
 * ADJUSTMENT is +1 and its amount carries its own sign (the only payment amount that may be negative).
 */
export const BUILT_IN_PAYMENT_DIRECTIONS: ReadonlyMap<string, PaymentDirection> = new Map<string, PaymentDirection>([
  ['SALE', 1],
  ['REFUND', -1],
  ['DEPOSIT', 1],
  ['DEPOSIT_APPLIED', 0],
  ['ADJUSTMENT', 1],
]);

const NO_PARTNER_DIRECTIONS: ReadonlyMap<string, PaymentDirection> = new Map();

/**
 * Direction of a payment_type: the built-in one for a suggested code, else the one HQ registered
 * for the partner, else undefined (unknown: the payment is left out of the total and reported).
 * A partner registration never overrides a suggested code.
 */
export function paymentDirection(
  paymentType: string,
  partnerDirections: ReadonlyMap<string, PaymentDirection> = NO_PARTNER_DIRECTIONS,
): PaymentDirection | undefined {
  return BUILT_IN_PAYMENT_DIRECTIONS.get(paymentType) ?? partnerDirections.get(paymentType);
}
