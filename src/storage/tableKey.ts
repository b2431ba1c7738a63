/**
 * Table keys may not contain `/ \ # ?` or control characters, and partner-chosen ids can.
 * Ids are encoded reversibly: letters, digits, `-`, `_` and `.` stay as they are; every other
 * UTF-8 byte becomes `~XX`. `|` never survives encoding, so it separates the parts of a key.
 */
export function encodeKeyPart(value: string): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9._-]/.test(ch) ? ch : `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

export function decodeKeyPart(encoded: string): string {
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

/** A key made of several ids, each encoded, joined by `|`. */
export function tableKey(...parts: string[]): string {
  return parts.map(encodeKeyPart).join('|');
}
