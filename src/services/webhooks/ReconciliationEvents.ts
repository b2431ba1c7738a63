import { reconciliationSource, storeDaySubject } from '../../events/buildCloudEvent.js';
import { eventIdFor } from '../../events/eventIdFor.js';
import type { EventType } from '../../events/eventTypes.js';
import type { ReconciliationRecord } from '../../storage/ReconciliationRepository.js';
import { toResultBody } from '../ReconciliationQuery.js';
import type { EventPublisher } from './EventPublisher.js';

/**
 * Tells the partner about a stored reconciliation result: `reconciliation.completed` for every
 * result, and `reconciliation.changed` as well when it changed the day's status or figures. The
 * data is the result exactly as GET /daily-close/{store_id}/{business_date} answers it.
 *
 * Event ids come from the stored result (its close and its time), so publishing the same stored
 * result again, as a retried run does, repeats the same ids and the partner sees each event once.
 */
export class ReconciliationEvents {
  constructor(private readonly publisher: EventPublisher) {}

  async resultStored(record: ReconciliationRecord): Promise<void> {
    if (record.status === 'RECEIVED' || record.checkedAt === null) return;
    await this.#publish(record, 'reconciliation.completed', record.checkedAt);
    if (record.changed) await this.#publish(record, 'reconciliation.changed', record.checkedAt);
  }

  async #publish(record: ReconciliationRecord, type: EventType, checkedAt: string): Promise<void> {
    const { partnerId, storeId, businessDate } = record;
    await this.publisher.publish(partnerId, {
      id: eventIdFor([partnerId, type, storeId, businessDate, record.closeBatchId, checkedAt]),
      type,
      source: reconciliationSource,
      subject: storeDaySubject(storeId, businessDate),
      time: new Date(checkedAt),
      data: toResultBody(storeId, businessDate, record),
    });
  }
}
