import { CloudEvent as ReferenceCloudEvent, HTTP, ValidationError } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import { buildCloudEvent, reconciliationSource, storeDaySubject } from '../../src/events/buildCloudEvent.js';
import { cloudEventContentType } from '../../src/events/CloudEvent.js';
import { eventIdFor } from '../../src/events/eventIdFor.js';

const result = {
  store_id: 'NYC/0001',
  business_date: '2026-03-01',
  status: 'MATCHED',
  checked_at: '2026-03-02T00:15:00.000Z',
  expected: { net_sales: '1234.50' },
  actual: { net_sales: '1234.50' },
  differences: [],
  diagnosis: null,
};

const event = buildCloudEvent({
  id: eventIdFor(['partner-a', 'reconciliation.completed', 'NYC/0001', '2026-03-01', 'close-1']),
  typePrefix: 'com.contoso.pos',
  type: 'reconciliation.completed',
  source: reconciliationSource,
  subject: storeDaySubject('NYC/0001', '2026-03-01'),
  time: new Date('2026-03-02T00:15:00Z'),
  data: result,
});

describe('the CloudEvents envelope', () => {
  it('has the attributes of the contract, data as given', () => {
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(event).toEqual({
      specversion: '1.0',
      id: event.id,
      source: '/pos/v1/daily-close',
      type: 'com.contoso.pos.reconciliation.completed',
      subject: 'NYC/0001/2026-03-01',
      time: '2026-03-02T00:15:00.000Z',
      datacontenttype: 'application/json',
      data: result,
    });
  });

  it('is read back by an independent CloudEvents implementation in structured mode, strictly validated', () => {
    const body = JSON.stringify(event);
    const message = { headers: { 'content-type': cloudEventContentType }, body };
    expect(HTTP.isEvent(message)).toBe(true);
    const parsed = HTTP.toEvent(message) as ReferenceCloudEvent<typeof result>;
    expect(parsed).toBeInstanceOf(ReferenceCloudEvent);
    expect(parsed.validate()).toBe(true);
    expect(parsed.specversion).toBe('1.0');
    expect(parsed.id).toBe(event.id);
    expect(parsed.type).toBe(event.type);
    expect(parsed.source).toBe(event.source);
    expect(parsed.subject).toBe(event.subject);
    expect(new Date(String(parsed.time)).toISOString()).toBe(event.time);
    expect(parsed.data).toEqual(result);
  });

  it('the same implementation refuses an envelope without a required attribute (the check can fail)', () => {
    const { source: _dropped, ...withoutSource } = event;
    const parsed = HTTP.toEvent({
      headers: { 'content-type': cloudEventContentType },
      body: JSON.stringify(withoutSource),
    }) as ReferenceCloudEvent;
    expect(() => parsed.validate()).toThrow(ValidationError);
  });

  it('source followed by subject is the GET path of the same result', () => {
    expect(`${event.source}/${event.subject ?? ''}`).toBe('/pos/v1/daily-close/NYC/0001/2026-03-01');
  });

  it('leaves out the subject when there is none', () => {
    const bare = buildCloudEvent({
      id: 'evt_1',
      typePrefix: 'com.contoso.pos',
      type: 'batch.failed',
      source: '/pos/v1/trade-records',
      time: new Date(0),
      data: {},
    });
    expect('subject' in bare).toBe(false);
  });

  it.each([
    ['an id with "." (it is also the signed webhook-id)', { id: 'evt.1' }],
    ['an empty id', { id: '' }],
    ['a prefix that is not reverse-DNS', { typePrefix: 'contoso' }],
    ['a source with a space', { source: '/pos/v1/daily close' }],
    ['an invalid time', { time: new Date(Number.NaN) }],
  ])('refuses %s', (_label, change) => {
    expect(() =>
      buildCloudEvent({
        id: 'evt_1',
        typePrefix: 'com.contoso.pos',
        type: 'batch.failed',
        source: '/pos/v1/x',
        time: new Date(0),
        data: {},
        ...change,
      }),
    ).toThrow();
  });
});

describe('event ids', () => {
  it('are the same for the same occurrence and differ for any other', () => {
    const parts = ['partner-a', 'reconciliation.completed', 'S1', '2026-03-01', 'close-1'];
    expect(eventIdFor(parts)).toBe(eventIdFor([...parts]));
    expect(eventIdFor(parts)).not.toBe(eventIdFor(['partner-b', ...parts.slice(1)]));
    // Joining is unambiguous: moving a separator between parts gives another id.
    expect(eventIdFor(['a|b', 'c'])).not.toBe(eventIdFor(['a', 'b|c']));
    expect(eventIdFor(['ab', 'c'])).not.toBe(eventIdFor(['a', 'bc']));
  });
});
