import { isEventType, type EventType } from './eventTypes.js';

/**
 * Message of the webhook delivery queue: deliver this stored event to its partner's endpoint.
 * One message per delivery; a failed attempt ends its message and sends the next one with a
 * visibility delay, so no retry is ever held inside a running function.
 */
export interface WebhookDeliveryMessage {
  readonly partnerId: string;
  readonly eventId: string;
  readonly eventType: EventType;
  /**
   * The registration's generation the event was published (or resent) for; delivery drops the
   * event when the partner has registered anew since. Absent in messages queued before it existed.
   */
  readonly generation?: string;
  /** When the event was created (ISO 8601); retries end 24 hours later. */
  readonly createdAt: string;
  /** Attempts made so far (0 in the first message). */
  readonly attempts: number;
  /** When the first attempt was made, once there was one (ISO 8601). */
  readonly firstAttemptAt?: string;
  /** When the last attempt was made and why it failed, carried for the dead-letter record. */
  readonly lastAttemptAt?: string;
  readonly lastErrorClass?: string;
  /** How often the event went back to the queue, not attempted, because its endpoint was busy. */
  readonly busyReturns?: number;
}

const isIsoTime = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value));

export function isWebhookDeliveryMessage(value: unknown): value is WebhookDeliveryMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  return (
    typeof m.partnerId === 'string' &&
    m.partnerId !== '' &&
    typeof m.eventId === 'string' &&
    m.eventId !== '' &&
    isEventType(m.eventType) &&
    (m.generation === undefined || (typeof m.generation === 'string' && m.generation !== '')) &&
    isIsoTime(m.createdAt) &&
    typeof m.attempts === 'number' &&
    Number.isSafeInteger(m.attempts) &&
    m.attempts >= 0 &&
    (m.firstAttemptAt === undefined || isIsoTime(m.firstAttemptAt)) &&
    (m.lastAttemptAt === undefined || isIsoTime(m.lastAttemptAt)) &&
    (m.lastErrorClass === undefined || typeof m.lastErrorClass === 'string') &&
    (m.busyReturns === undefined || (typeof m.busyReturns === 'number' && Number.isSafeInteger(m.busyReturns) && m.busyReturns >= 0))
  );
}
