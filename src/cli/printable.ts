/**
 * Text from storage or from the command line, made safe to print on an operator's terminal:
 * control characters (escape sequences, carriage returns, newlines), DEL, C1 controls, line and
 * paragraph separators and bidirectional overrides are shown as `\xNN` / `\u{NNNN}` escapes, so
 * a partner name can neither rewrite the screen nor forge a line of output. A backslash is
 * doubled so an escape cannot be faked either.
 */
export function printable(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (ch === '\\') out += '\\\\';
    else if (!isUnsafe(code)) out += ch;
    else out += code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  }
  return out;
}

function isUnsafe(code: number): boolean {
  return (
    code <= 0x1f ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}
