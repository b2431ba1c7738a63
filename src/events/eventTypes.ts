/**
 * The events the service sends to partners. A partner subscribes to these short names; the
 * CloudEvents `type` on the wire is the configured reverse-DNS prefix followed by the short name,
 * e.g. `com.contoso.pos.reconciliation.completed`.
 */
export const eventTypes = ['reconciliation.completed', 'reconciliation.changed', 'batch.failed'] as const;

export type EventType = (typeof eventTypes)[number];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (eventTypes as readonly string[]).includes(value);
}

/**
 * A reverse-DNS prefix: at least two dot-separated labels of lowercase letters, digits, `-` and
 * `_`, each starting with a letter (`com.contoso.pos`). Dots separate the hierarchy of the type,
 * as the Standard Webhooks and CloudEvents conventions both expect.
 */
export function isEventTypePrefix(value: string): boolean {
  return value.length <= 100 && /^[a-z][a-z0-9_-]*(\.[a-z][a-z0-9_-]*)+$/.test(value);
}

/** The CloudEvents `type` of an event: `<prefix>.<short name>`. */
export function qualifiedEventType(prefix: string, type: EventType): string {
  return `${prefix}.${type}`;
}
