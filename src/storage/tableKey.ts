import { createHash } from 'node:crypto';

/**
 * Longest PartitionKey or RowKey written: Table Storage takes keys of up to 1 KiB and counts them
 * in UTF-16 (the emulator refuses 513 characters). Encoded keys are ASCII, so 512 characters.
 */
export const maxKeyLength = 512;

/** Starts a part that stands for a value too long to spell out; `~` never starts one otherwise. */
const digestMarker = '~~';

/**
 * Table keys may not contain `/ \ # ?` or control characters, and partner-chosen ids can.
 * Ids are encoded reversibly: letters, digits, `-`, `_` and `.` stay as they are; every other
 * UTF-8 byte becomes `~XX`. `|` never survives encoding, so it separates the parts of a key.
 *
 * Encoding can triple a value's length (`漢` is nine characters), so a key that would be longer
 * than {@link maxKeyLength} has its long parts replaced by `~~` and a SHA-256 digest (45
 * characters): every identifier the schemas allow fits, in any script. A digested part cannot be
 * decoded; the repositories that read ids back from keys keep them as properties too. Keys that
 * fit are exactly what they always were.
 */
export function encodeKeyPart(value: string): string {
  return tableKey(value);
}

/** A key made of several ids, each encoded, joined by `|`, at most {@link maxKeyLength} characters. */
export function tableKey(...parts: string[]): string {
  const escaped = parts.map(escapeKeyPart);
  const joined = escaped.join('|');
  if (joined.length <= maxKeyLength) return joined;
  const budget = Math.floor((maxKeyLength - (parts.length - 1)) / parts.length);
  return escaped.map((part, i) => (part.length <= budget ? part : digestKeyPart(parts[i] ?? ''))).join('|');
}

/** Whether a part of a stored key is a digest (its value must be read from a property). */
export function isDigestKeyPart(part: string): boolean {
  return part.startsWith(digestMarker);
}

/** The value of an encoded key part. Throws on a digest, which does not hold the value. */
export function decodeKeyPart(encoded: string): string {
  if (isDigestKeyPart(encoded)) throw new Error('A digested key part cannot be decoded; read the value from its property.');
  // A part the encoder left as it was (most ids) is its own value: no copy for every row of a listing.
  if (plainKeyPart.test(encoded)) return encoded;
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    if (encoded[i] === '~') {
      bytes.push(parseInt(encoded.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(encoded.charCodeAt(i));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Values written into keys as they are; anything else is escaped byte by byte. */
const plainKeyPart = /^[A-Za-z0-9._-]*$/;

function escapeKeyPart(value: string): string {
  if (plainKeyPart.test(value)) return value;
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9._-]/.test(ch) ? ch : `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function digestKeyPart(value: string): string {
  return digestMarker + createHash('sha256').update(value, 'utf8').digest('base64url');
}
