import type { PaymentDirection } from '../../../src/domain/reconciliation/paymentDirection.js';
import type { PaymentDirections } from '../../../src/services/ports/PaymentDirections.js';

/** Registered payment directions in a map per partner, for unit tests of services. */
export class InMemoryPaymentDirections implements PaymentDirections {
  private readonly byPartner = new Map<string, Map<string, PaymentDirection>>();

  set(partnerId: string, paymentType: string, direction: PaymentDirection, _now: Date): Promise<void> {
    const directions = this.byPartner.get(partnerId) ?? new Map<string, PaymentDirection>();
    directions.set(paymentType, direction);
    this.byPartner.set(partnerId, directions);
    return Promise.resolve();
  }

  listForPartner(partnerId: string): Promise<Map<string, PaymentDirection>> {
    return Promise.resolve(new Map(this.byPartner.get(partnerId)));
  }
}
