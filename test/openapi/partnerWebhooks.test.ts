import { describe, expect, it } from 'vitest';
import { buildCloudEvent } from '../../src/events/buildCloudEvent.js';
import { eventTypes } from '../../src/events/eventTypes.js';
import { noTelemetry } from '../../src/observability/Telemetry.js';
import { renderPartnerOpenApiFile } from '../../src/openapi/writeDocs.js';
import { BatchFailureEvents } from '../../src/services/webhooks/BatchFailureEvents.js';
import type { PublishedEvent } from '../../src/services/webhooks/EventPublisher.js';
import { pointerToken, specValidator } from './specAjv.js';

interface WebhookItem {
  post: {
    security: unknown[];
    parameters: { name: string; in: string; required: boolean }[];
    requestBody: { content: Record<string, { example: { type: string } }> };
    responses: Record<string, unknown>;
  };
}
const document = JSON.parse(renderPartnerOpenApiFile()) as { webhooks: Record<string, WebhookItem> };
const schemaAt = specValidator(document);
const eventSchema = (name: string) =>
  schemaAt(`/webhooks/${pointerToken(name)}/post/requestBody/content/${pointerToken('application/cloudevents+json')}/schema`);

/** The event the failure path publishes for a failed trade-records batch, as sent on the wire. */
async function publishedBatchFailure(): Promise<Record<string, unknown>> {
  let published: PublishedEvent<unknown> | undefined;
  const events = new BatchFailureEvents({
    publish: (_partnerId, input) => {
      published = input;
      return Promise.resolve('queued');
    },
  });
  await events.batchFailed(
    {
      partnerId: 'partner-a',
      batchId: '3f2b8c1e-7d4a-4e55-9a0b-1c2d3e4f5a6b',
      endpoint: 'trade-records',
      code: 'BATCH_FAILED',
      message: 'Storage refused this batch.',
      failedAt: new Date('2026-03-01T10:00:00Z'),
    },
    noTelemetry,
  );
  if (published === undefined) throw new Error('no event was published');
  return JSON.parse(JSON.stringify(buildCloudEvent({ ...published, typePrefix: 'com.example.pos' }))) as Record<string, unknown>;
}

describe('the events in the partner API document', () => {
  it('describes each event a partner can subscribe to as a webhook, and no other', () => {
    expect(Object.keys(document.webhooks).sort()).toEqual([...eventTypes].sort());
  });

  it('says what a receiver gets: the signature headers, a CloudEvent, and what its answers do', () => {
    for (const [name, item] of Object.entries(document.webhooks)) {
      expect(item.post.security, name).toEqual([]);
      expect(item.post.parameters.map((p) => [p.name, p.in, p.required])).toEqual([
        ['webhook-id', 'header', true],
        ['webhook-timestamp', 'header', true],
        ['webhook-signature', 'header', true],
      ]);
      expect(Object.keys(item.post.requestBody.content)).toEqual(['application/cloudevents+json']);
      expect(Object.keys(item.post.responses).sort()).toEqual(['2XX', '410', 'default']);
    }
  });

  it("gives each event an example of that event's type that its schema accepts", () => {
    for (const [name, item] of Object.entries(document.webhooks)) {
      const example = item.post.requestBody.content['application/cloudevents+json']!.example;
      expect(example.type.endsWith(`.${name}`), name).toBe(true);
      const validate = eventSchema(name);
      expect(validate(example), `${name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('accepts the batch.failed event the failure path publishes, and refuses it incomplete or as another event', async () => {
    const event = await publishedBatchFailure();
    const validate = eventSchema('batch.failed');
    expect(validate(event), JSON.stringify(validate.errors)).toBe(true);

    const { failed_at: _dropped, ...dataWithoutTime } = event.data as Record<string, unknown>;
    expect(validate({ ...event, data: dataWithoutTime })).toBe(false);
    expect(validate({ ...event, type: 'com.example.pos.reconciliation.completed' })).toBe(false);
    expect(eventSchema('reconciliation.completed')(event)).toBe(false);
  });
});
