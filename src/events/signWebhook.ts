import { createHmac } from 'node:crypto';
import type { WebhookSecret } from './WebhookSecret.js';

/** What a Standard Webhooks signature covers: the message id, the attempt's time and the exact body. */
export interface SignedContent {
  /** `webhook-id`: the event id, the same on every attempt. Must not contain `.`. */
  readonly id: string;
  /** `webhook-timestamp`: the attempt's time, whole seconds since the Unix epoch. */
  readonly timestamp: number;
  /** The exact bytes sent as the request body. */
  readonly body: string | Buffer;
}

/** The three Standard Webhooks headers of one attempt. */
export interface WebhookHeaders {
  readonly 'webhook-id': string;
  readonly 'webhook-timestamp': string;
  readonly 'webhook-signature': string;
}

/**
 * `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>" keyed with the secret's decoded bytes>`.
 * @internal exported for its own test, which checks it against the specification's example.
 */
export function signatureOf(secret: WebhookSecret, content: SignedContent): string {
  if (content.id.includes('.') || content.id === '') throw new Error('a webhook id must be non-empty and contain no "."');
  if (!Number.isSafeInteger(content.timestamp) || content.timestamp < 0) throw new Error('a webhook timestamp is whole Unix seconds');
  const hmac = createHmac('sha256', secret.key);
  hmac.update(`${content.id}.${content.timestamp}.`, 'utf8');
  hmac.update(typeof content.body === 'string' ? Buffer.from(content.body, 'utf8') : content.body);
  return `v1,${hmac.digest('base64')}`;
}

/**
 * Headers of one attempt, signed with every given secret (the current one first). During a
 * rotation the previous secret signs too, space-separated, so a receiver that still holds it keeps
 * verifying until it switches.
 */
export function signWebhook(secrets: readonly WebhookSecret[], content: SignedContent): WebhookHeaders {
  if (secrets.length === 0) throw new Error('a webhook is signed with at least one secret');
  return {
    'webhook-id': content.id,
    'webhook-timestamp': String(content.timestamp),
    'webhook-signature': secrets.map((secret) => signatureOf(secret, content)).join(' '),
  };
}
