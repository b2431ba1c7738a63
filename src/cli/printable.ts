/**
 * Text from storage or from the command line, made safe to print on an operator's terminal:
 * control characters (escape sequences, carriage returns, newlines), DEL, C1 controls, line and
 * paragraph separators and bidirectional overrides are shown as `\xNN` / `\u{NNNN}` escapes, so
 * a partner name can neither rewrite the screen nor forge a line of output. A backslash is
 * doubled so an escape cannot be faked either.
 */
export function printable(text: string): string {
  return text.replace(/[\\\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu, (ch) => {
    if (ch === '\\') return '\\\\';
    const code = ch.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
  });
}
