import { buildCloudEvent, reconciliationSource, storeDaySubject } from '../events/buildCloudEvent.js';
import { deliveryPolicy } from '../events/DeliveryPolicy.js';
import { eventIdFor } from '../events/eventIdFor.js';
import type { EventType } from '../events/eventTypes.js';
import { errorCatalogue } from '../errors/errorCatalogue.js';
import { batchFailedEvent } from '../services/webhooks/BatchFailureEvents.js';
import { partnerExamples } from './partnerExamples.js';
import type { WebhookDoc } from './WebhookDoc.js';

/** The prefix of a document that describes no one environment (docs/openapi.json). */
const examplePrefix = 'com.contoso.pos';
const partnerId = 'ACME';
const result = partnerExamples.getReconciliation.responses[200];

const reconciliationExample = (type: 'reconciliation.completed' | 'reconciliation.changed', typePrefix: string) =>
  buildCloudEvent({
    id: eventIdFor([partnerId, type, result.store_id, result.business_date]),
    typePrefix,
    type,
    source: reconciliationSource,
    subject: storeDaySubject(result.store_id, result.business_date),
    time: new Date(result.checked_at),
    data: result,
  });

const failedAt = new Date('2026-03-01T17:20:05.120Z');
const batchFailedExample = (typePrefix: string) =>
  buildCloudEvent({
    ...batchFailedEvent({
      partnerId,
      batchId: partnerExamples.pushTradeRecords.request.batch_id,
      endpoint: 'trade-records',
      code: 'BATCH_FAILED',
      message: errorCatalogue.BATCH_FAILED.message,
      failedAt,
    }),
    typePrefix,
  });

const hours = (seconds: number): string => `${seconds / 3600} hours`;

/** What every event's delivery shares: said once, under each event. */
const delivery = (
  typeIs: string,
) => `Sent as a POST of one CloudEvents 1.0 event in structured JSON (\`Content-Type: application/cloudevents+json\`) to the registered endpoint, signed as Standard Webhooks asks: verify \`webhook-signature\` against the raw body before parsing it, and refuse a \`webhook-timestamp\` more than 5 minutes away. ${typeIs}; subscribe to the name.

At least once: the same \`webhook-id\` (the event's \`id\`) on every attempt and after a crash, so deduplicate on it. Events carry no order: order a day's events by \`time\`.

One attempt lasts at most ${deliveryPolicy.attemptTimeoutMs / 1000} s up to the response's status line; the response body is never read and redirects are never followed. Any other answer, a timeout or a network error is retried with exponential backoff for ${hours(deliveryPolicy.maxAgeSeconds)} after the event; then HQ holds the event as a dead letter and can send it again.`;

/**
 * The events of the partner API, keyed by the name a partner subscribes to. Given the environment's
 * EVENT_TYPE_PREFIX (the document a running service serves), the examples and the text carry it, so
 * a partner reads the exact `type` its events will have; without one, an example prefix.
 */
export function partnerWebhooks(eventTypePrefix?: string): Readonly<Record<EventType, WebhookDoc>> {
  const prefix = eventTypePrefix ?? examplePrefix;
  const typeIs =
    eventTypePrefix === undefined
      ? "`type` is HQ's prefix (the same in every environment; the document the service serves names it), a dot and the event name"
      : `\`type\` is \`${eventTypePrefix}.\` followed by the event name`;
  const shared = delivery(typeIs);
  return {
    'reconciliation.completed': {
      summary: 'A store-day was reconciled',
      description: `Every reconciliation result, MATCHED or MISMATCHED: after a daily close, and again when a late batch, a corrected close or a mapping upload reconciles the day anew. \`data\` is the result exactly as GET /daily-close/{store_id}/{business_date} returns it at \`time\`.\n\n${shared}`,
      schema: { file: 'events.schema.json', def: 'reconciliationEvent' },
      example: reconciliationExample('reconciliation.completed', prefix),
    },
    'reconciliation.changed': {
      summary: "A store-day's result changed",
      description: `Sent beside reconciliation.completed when a later result of the same day changed its status or figures. \`data\` is the new result.\n\n${shared}`,
      schema: { file: 'events.schema.json', def: 'reconciliationEvent' },
      example: reconciliationExample('reconciliation.changed', prefix),
    },
    'batch.failed': {
      summary: 'A batch failed',
      description: `A batch ended in the failed state: storage refused it after it passed validation, and none of its transactions are counted. Its batch_id stays failed (500 BATCH_FAILED every time it is sent); send the records again under a new batch_id. \`subject\` is the batch_id; give it to HQ when asking. \`data.error\` is the error a push of this batch_id is answered with.\n\n${shared}`,
      schema: { file: 'events.schema.json', def: 'batchFailedEvent' },
      example: batchFailedExample(prefix),
    },
  };
}
