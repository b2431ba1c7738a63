/**
 * A CloudEvents 1.0 event in the structured JSON format: the attributes and the data in one JSON
 * object, which is the request body of a webhook. Property order is the order written here.
 */
export interface CloudEvent<T> {
  readonly specversion: '1.0';
  /** The event id; also the `webhook-id` header, and the same on every delivery attempt. */
  readonly id: string;
  /** The context the event happened in, as a URI reference (e.g. `/pos/v1/daily-close`). */
  readonly source: string;
  /** `<reverse-DNS prefix>.<event type>`, e.g. `com.contoso.pos.reconciliation.completed`. */
  readonly type: string;
  /** What the event is about within the source, e.g. `<store_id>/<business_date>`. */
  readonly subject?: string;
  /** When the occurrence happened (RFC 3339, UTC). */
  readonly time: string;
  readonly datacontenttype: 'application/json';
  readonly data: T;
}

/** Content-Type of a structured-mode CloudEvent over HTTP. */
export const cloudEventContentType = 'application/cloudevents+json; charset=utf-8';
