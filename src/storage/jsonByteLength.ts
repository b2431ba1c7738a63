/**
 * The UTF-8 length of `JSON.stringify(value)` (0 for undefined), counted without building the
 * text when the value is a string, number or boolean: the size checks of a push run over every
 * property of every row it writes.
 */
export function jsonByteLength(value: unknown): number {
  if (typeof value === 'string') return jsonStringByteLength(value);
  if (typeof value === 'number') return Number.isFinite(value) ? String(value).length : 4;
  if (typeof value === 'boolean') return value ? 4 : 5;
  if (value === undefined) return 0;
  return Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/** A string as JSON writes it: quoted, `"` and `\` and control characters and lone surrogates escaped. */
function jsonStringByteLength(text: string): number {
  let bytes = 2;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) {
      if (c >= 0x20) bytes += c === 0x22 || c === 0x5c ? 2 : 1;
      else bytes += c === 0x08 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d ? 2 : 6;
    } else if (c < 0x800) {
      bytes += 2;
    } else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else {
        bytes += 6;
      }
    } else {
      bytes += c >= 0xdc00 && c <= 0xdfff ? 6 : 3;
    }
  }
  return bytes;
}
