import type { CloudEvent } from './CloudEvent.js';
import { isEventTypePrefix, qualifiedEventType, type EventType } from './eventTypes.js';

export interface CloudEventInput<T> {
  readonly id: string;
  /** The configured reverse-DNS prefix (EVENT_TYPE_PREFIX). */
  readonly typePrefix: string;
  readonly type: EventType;
  readonly source: string;
  readonly subject?: string;
  readonly time: Date;
  readonly data: T;
}

/** The context of reconciliation events: source + subject is the GET path of the same result. */
export const reconciliationSource = '/pos/v1/daily-close';

/**
 * The subject of an event about one store-day, `<store_id>/<business_date>`. The date has a fixed
 * form, so the last `/` always separates the two even when a store id holds one.
 */
export function storeDaySubject(storeId: string, businessDate: string): string {
  return `${storeId}/${businessDate}`;
}

/**
 * Builds the structured CloudEvents 1.0 envelope. Refuses what the specification or the signature
 * scheme would not accept: an empty id or one holding `.` (it is also the `webhook-id`), a source
 * that is not a URI reference, a prefix that is not reverse-DNS, an invalid time.
 */
export function buildCloudEvent<T>(input: CloudEventInput<T>): CloudEvent<T> {
  if (!/^[A-Za-z0-9_-]{1,128}$/.test(input.id)) throw new Error('an event id is 1-128 letters, digits, "_" or "-"');
  if (!isEventTypePrefix(input.typePrefix)) throw new Error('the event type prefix is not a reverse-DNS name');
  if (input.source === '' || /[\s"<>\\^`{|}]/.test(input.source)) throw new Error('an event source is a non-empty URI reference');
  if (Number.isNaN(input.time.getTime())) throw new Error('an event time must be a valid date');
  return {
    specversion: '1.0',
    id: input.id,
    source: input.source,
    type: qualifiedEventType(input.typePrefix, input.type),
    ...(input.subject === undefined ? {} : { subject: input.subject }),
    time: input.time.toISOString(),
    datacontenttype: 'application/json',
    data: input.data,
  };
}
