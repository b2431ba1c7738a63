import { randomBytes } from 'node:crypto';
import { inspect } from 'node:util';

const prefix = 'whsec_';
/** Bytes of every secret the service issues. */
const issuedKeyBytes = 32;
/** What the Standard Webhooks specification allows for HMAC keys: 24 to 64 bytes. */
const minKeyBytes = 24;
const maxKeyBytes = 64;
const redacted = 'whsec_[redacted]';

/**
 * A webhook signing secret, `whsec_<base64 of the key bytes>`. The service must be able to sign
 * with it, so it is kept, not hashed; the object hides its value from logs, JSON and inspection,
 * and only `reveal()` (the one answer that hands it to the partner, and storage) spells it out.
 */
export class WebhookSecret {
  readonly #key: Buffer;

  private constructor(key: Buffer) {
    this.#key = key;
  }

  /** A new secret of 32 random bytes. */
  static generate(random: (size: number) => Buffer = randomBytes): WebhookSecret {
    return new WebhookSecret(Buffer.from(random(issuedKeyBytes)));
  }

  /** Reads `whsec_<base64>`; undefined when it is not one (the key must be 24 to 64 bytes). */
  static parse(text: string): WebhookSecret | undefined {
    if (!text.startsWith(prefix)) return undefined;
    const encoded = text.slice(prefix.length);
    if (encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
    const key = Buffer.from(encoded, 'base64');
    if (key.length < minKeyBytes || key.length > maxKeyBytes || key.toString('base64') !== encoded) return undefined;
    return new WebhookSecret(key);
  }

  /** The key bytes the HMAC is computed with (the decoded base64, not the text). */
  get key(): Buffer {
    return Buffer.from(this.#key);
  }

  /** The secret as the partner receives it once and storage keeps it. Never log the result. */
  reveal(): string {
    return `${prefix}${this.#key.toString('base64')}`;
  }

  equals(other: WebhookSecret): boolean {
    return this.#key.equals(other.#key);
  }

  toString(): string {
    return redacted;
  }

  toJSON(): string {
    return redacted;
  }

  [inspect.custom](): string {
    return redacted;
  }
}
