import type { PaymentDirection } from '../../domain/reconciliation/paymentDirection.js';

/** Directions HQ registered for a partner's own payment_type codes. */
export interface PaymentDirections {
  set(partnerId: string, paymentType: string, direction: PaymentDirection, now: Date): Promise<void>;
  listForPartner(partnerId: string): Promise<Map<string, PaymentDirection>>;
}
