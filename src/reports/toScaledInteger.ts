/**
 * A decimal string as the unscaled integer of a Parquet DECIMAL(precision, scale): "12.34" at scale
 * 4 is 123400n. Exact: no float is involved, and nothing is rounded. Returns undefined when the
 * value has more decimal places than the scale or more digits than the precision allows, or is
 * not a plain decimal string (`-?digits[.digits]`); the caller reports which column it was.
 * A single pass over the characters: it runs for every amount of a day's report.
 */
export function toScaledInteger(text: string, scale: number, precision: number): bigint | undefined {
  const length = text.length;
  const negative = text.charCodeAt(0) === 0x2d;
  let i = negative ? 1 : 0;
  const wholeStart = i;
  while (i < length && isDigit(text.charCodeAt(i))) i++;
  if (i === wholeStart) return undefined;
  const wholeEnd = i;
  let fraction = '';
  if (i < length) {
    if (text.charCodeAt(i) !== 0x2e) return undefined;
    const fractionStart = ++i;
    while (i < length && isDigit(text.charCodeAt(i))) i++;
    if (i === fractionStart || i < length) return undefined;
    fraction = text.slice(fractionStart, i);
    if (fraction.length > scale) return undefined;
  }
  let start = wholeStart;
  while (start < wholeEnd - 1 && text.charCodeAt(start) === 0x30) start++;
  const whole = text.slice(start, wholeEnd);
  // A whole part of 0 always fits (scale <= precision); otherwise its digits plus the scale must.
  if (whole !== '0' && whole.length + scale > precision) return undefined;
  const magnitude = BigInt(whole + fraction.padEnd(scale, '0'));
  return negative ? -magnitude : magnitude;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}
