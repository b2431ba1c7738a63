/**
 * Hive partition values in blob names (`store_id=<value>`), encoded so that any id the service
 * accepts makes a valid, unambiguous path segment, and decoded back exactly by readers that
 * percent-decode partition values (DuckDB, Spark):
 *
 * - ASCII letters, digits, `-`, `_` and `.` stay as they are, except a `.` at the end of the value
 *   (a blob or directory name ending in a dot is not recommended);
 * - Unicode letters, combining marks and digits outside ASCII stay as they are;
 * - every other character (controls, space, `/ \ = % # ? + & :` and all other punctuation,
 *   symbols, format and private-use characters) becomes `%XX` for each byte of its UTF-8 form, with
 *   upper-case hex digits.
 *
 * - a value that readers take for null (`__HIVE_DEFAULT_PARTITION__`, and `null` in any letter
 *   case) has its first character encoded too.
 *
 * So ordinary codes such as `SEA-001` or `東京駅前店` read the same in the path, and a value
 * can never introduce a `/`, a `key=value` of its own, or a character storage refuses.
 */
export function encodePartitionValue(value: string): string {
  return encode(value, keptRaw);
}

/**
 * Like {@link encodePartitionValue}, but outside ASCII only control characters are encoded: every
 * other character stays as it is, so no value of 128 characters takes more than 384 (ASCII
 * punctuation, three each). For a path that would otherwise be longer than a blob name may be; it
 * decodes the same way.
 */
export function encodePartitionValueCompactly(value: string): string {
  return encode(value, keptRawWhenCompact);
}

function encode(value: string, kept: RegExp): string {
  if (value === '') throw new RangeError('a partition value cannot be empty');
  let out = '';
  const last = value.length - 1;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (isPlainAscii(code) && !(code === 0x2e && i === last)) {
      out += String.fromCharCode(code);
      continue;
    }
    const point = value.codePointAt(i) ?? code;
    const char = String.fromCodePoint(point);
    if (point > 0x7f && kept.test(char)) out += char;
    else out += percentEncode(char);
    if (point > 0xffff) i++;
  }
  if (out === hiveNull || out.toLowerCase() === 'null') out = `${percentEncode(out.charAt(0))}${out.slice(1)}`;
  if (decodePartitionValue(out) !== value) throw new RangeError('the value holds an unpaired surrogate and cannot be encoded reversibly');
  return out;
}

/**
 * Inverse of {@link encodePartitionValue}: `%XX` sequences are UTF-8 bytes.
 * @internal read by the tests that turn a partition folder name back into its value.
 */
export function decodePartitionValue(encoded: string): string {
  return encoded.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    return utf8.decode(bytes);
  });
}

/** The partition value Hive and Spark write for null, and DuckDB reads as null (as it reads `null`). */
const hiveNull = '__HIVE_DEFAULT_PARTITION__';

const utf8 = new TextDecoder('utf-8', { fatal: true });
const encoder = new TextEncoder();
const keptRaw = /^[\p{L}\p{M}\p{N}]$/u;
/** Anything but a control character or half of a surrogate pair (which `encode` refuses). */
const keptRawWhenCompact = /^[^\p{Cc}\p{Cs}]$/u;

function isPlainAscii(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    code === 0x2d ||
    code === 0x5f ||
    code === 0x2e
  );
}

function percentEncode(char: string): string {
  let out = '';
  for (const byte of encoder.encode(char)) out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  return out;
}
