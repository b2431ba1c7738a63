// Whether a JSON number with a fraction or an exponent reads back as written once held as a
// double: what keeps `2.9999999999999999` from becoming 3, or `1e-400` 0, unnoticed.

const smallestNormalDouble = 2.2250738585072014e-308;

/**
 * The digits of the JSON number at `start`–`end` of the text, from its mantissa's first non-zero
 * digit to its last. A loop, not a regex: one anchored at the end backtracks quadratically over a
 * long run of zeros.
 */
export function significantDigits(text: string, start: number, end: number): number {
  let first = -1;
  let last = -1;
  let digits = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x65 || c === 0x45) break;
    if (c < 0x30 || c > 0x39) continue;
    if (c !== 0x30) {
      if (first < 0) first = digits;
      last = digits;
    }
    digits++;
  }
  return first < 0 ? 0 : last - first + 1;
}

/**
 * Whether a number written with `digits` significant digits reads back as written from `kept`,
 * the double it became: whether its value is the shortest decimal form of `kept`. Up to 15 digits
 * always do within the normal range of doubles; over 17 never do (a double's shortest form has at
 * most 17); the rest are compared in exponential form, as `toExponential()` writes the shortest.
 */
export function readsBack(written: string, kept: number, digits: number): boolean {
  if (digits > 17) return false;
  if (digits === 0) return true;
  if (digits <= 15 && Math.abs(kept) >= smallestNormalDouble) return true;
  return exponentialForm(written) === kept.toExponential();
}

/**
 * A JSON number of 1 to 17 significant digits written as `toExponential()` writes one: sign, the
 * digits from the first non-zero one to the last with a point after the first, `e`, the exponent.
 */
function exponentialForm(written: string): string {
  const negative = written.charCodeAt(0) === 0x2d;
  let digits = '';
  let zerosAfterLast = 0;
  let mantissaDigits = 0;
  let pointAt = -1;
  let firstAt = -1;
  let i = negative ? 1 : 0;
  for (; i < written.length; i++) {
    const c = written.charCodeAt(i);
    if (c === 0x2e) {
      pointAt = mantissaDigits;
      continue;
    }
    if (c === 0x65 || c === 0x45) break;
    if (c === 0x30) {
      if (firstAt >= 0) zerosAfterLast++;
    } else {
      if (firstAt < 0) firstAt = mantissaDigits;
      digits += '0'.repeat(zerosAfterLast) + String.fromCharCode(c);
      zerosAfterLast = 0;
    }
    mantissaDigits++;
  }
  if (pointAt < 0) pointAt = mantissaDigits;
  const exponent = (i < written.length ? Number(written.slice(i + 1)) : 0) + pointAt - firstAt - 1;
  const mantissa = digits.length === 1 ? digits : `${digits.slice(0, 1)}.${digits.slice(1)}`;
  return `${negative ? '-' : ''}${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent))}`;
}
