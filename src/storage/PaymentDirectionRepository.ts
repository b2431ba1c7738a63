import type { TableClient } from '@azure/data-tables';
import type { PaymentDirection } from '../domain/reconciliation/paymentDirection.js';
import { decodeKeyPart, encodeKeyPart } from './tableKey.js';

/** Directions HQ registered for a partner's own payment_type codes. */
export class PaymentDirectionRepository {
  constructor(private readonly table: TableClient) {}

  async set(partnerId: string, paymentType: string, direction: PaymentDirection, now: Date): Promise<void> {
    await this.table.upsertEntity(
      // The code is kept as a property too: a long code's key is a digest.
      { partitionKey: encodeKeyPart(partnerId), rowKey: encodeKeyPart(paymentType), paymentType, direction, updatedAt: now.toISOString() },
      'Replace',
    );
  }

  async listForPartner(partnerId: string): Promise<Map<string, PaymentDirection>> {
    const directions = new Map<string, PaymentDirection>();
    for await (const e of this.table.listEntities<{ direction: number; paymentType?: string }>({
      queryOptions: { filter: `PartitionKey eq '${encodeKeyPart(partnerId)}'` },
    })) {
      directions.set(e.paymentType ?? decodeKeyPart(e.rowKey ?? ''), e.direction as PaymentDirection);
    }
    return directions;
  }
}
