import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookHeaders } from './signWebhook.js';
import { WebhookSecret } from './WebhookSecret.js';

export type WebhookVerification =
  | { readonly ok: true; readonly id: string; readonly timestamp: number }
  | { readonly ok: false; readonly reason: 'MISSING_HEADER' | 'BAD_TIMESTAMP' | 'TIMESTAMP_OUT_OF_TOLERANCE' | 'NO_MATCHING_SIGNATURE' };

export interface VerifyOptions {
  /**
   * The headers as received: the three webhook headers, others ignored. Node's `request.headers`
   * fits as it is (names in lower case; a header sent twice, an array, counts as missing), and so
   * does the Web-standard `Headers` of a fetch-style framework (`request.headers`; anything with a
   * `get(name)` is read through it, names in any case).
   */
  readonly headers:
    | Readonly<Partial<Record<keyof WebhookHeaders, string>>>
    | Readonly<Record<string, string | readonly string[] | undefined>>
    | { get(name: string): string | null | undefined };
  /**
   * The raw body as received, before any JSON parsing: its bytes (a Buffer, or the Uint8Array of a
   * fetch-style `request.arrayBuffer()`) or its text.
   */
  readonly body: string | Uint8Array;
  /**
   * Secrets the receiver accepts (during a rotation: the new one and the old one), each read with
   * `WebhookSecret.parse`. A list that is empty or holds anything else is a mistake of the caller's
   * and throws, rather than answer every event NO_MATCHING_SIGNATURE.
   */
  readonly secrets: readonly WebhookSecret[];
  /** The receiver's time the timestamp is checked against; default: the time of the call. */
  readonly now?: Date;
  /** How far the timestamp may be from `now`, either way; default 5 minutes. */
  readonly toleranceSeconds?: number;
}

const hmacBytes = 32;

/**
 * Checks a received webhook as a receiver must: all three headers present, the timestamp within
 * the tolerance (replay protection), and at least one `v1` signature in the space-separated list
 * equal to the HMAC computed with one of the secrets, compared in constant time. Other versions
 * (e.g. `v1a`) are skipped, as the specification asks.
 */
export function verifyWebhook(options: VerifyOptions): WebhookVerification {
  const secrets: readonly unknown[] = Array.isArray(options.secrets) ? options.secrets : [];
  if (secrets.length === 0 || !secrets.every((secret) => secret instanceof WebhookSecret)) {
    // WebhookSecret.parse answers undefined for text that is not a secret; that lands here.
    throw new TypeError('verifyWebhook needs secrets: one or more values read with WebhookSecret.parse from whsec_ secrets.');
  }
  const { headers } = options;
  // A Headers object holds its entries behind `get`: read as a plain object, it has none of them.
  const read: (name: keyof WebhookHeaders) => unknown = isHeadersLike(headers)
    ? (name) => headers.get(name)
    : (name) => (headers as Readonly<Record<string, unknown>>)[name];
  const header = (name: keyof WebhookHeaders): string | undefined => {
    const value = read(name);
    return typeof value === 'string' ? value : undefined;
  };
  const id = header('webhook-id');
  const rawTimestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !rawTimestamp || !signatures) return { ok: false, reason: 'MISSING_HEADER' };
  if (!/^\d{1,15}$/.test(rawTimestamp)) return { ok: false, reason: 'BAD_TIMESTAMP' };
  const timestamp = Number(rawTimestamp);
  const tolerance = options.toleranceSeconds ?? 300;
  const now = options.now ?? new Date();
  if (Math.abs(now.getTime() / 1000 - timestamp) > tolerance) return { ok: false, reason: 'TIMESTAMP_OUT_OF_TOLERANCE' };

  const body = typeof options.body === 'string' ? Buffer.from(options.body, 'utf8') : options.body;
  const expected = options.secrets.map((secret) =>
    createHmac('sha256', secret.key).update(`${id}.${rawTimestamp}.`, 'utf8').update(body).digest(),
  );
  let matched = false;
  for (const entry of signatures.split(' ')) {
    const comma = entry.indexOf(',');
    if (comma < 0 || entry.slice(0, comma) !== 'v1') continue;
    const given = Buffer.from(entry.slice(comma + 1), 'base64');
    if (given.length !== hmacBytes) continue;
    // Every candidate is compared against every secret, without stopping early.
    for (const candidate of expected) matched = timingSafeEqual(candidate, given) || matched;
  }
  return matched ? { ok: true, id, timestamp } : { ok: false, reason: 'NO_MATCHING_SIGNATURE' };
}

/** The Web-standard `Headers` (or anything else read through `get`, a `Map` of lower-case names too). */
function isHeadersLike(headers: VerifyOptions['headers']): headers is { get(name: string): string | null | undefined } {
  return typeof (headers as { get?: unknown }).get === 'function';
}
