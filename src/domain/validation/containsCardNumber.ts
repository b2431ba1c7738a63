import { passesGtinCheck, passesLuhn } from './luhn.js';

/**
 * Payment card number detection (PAN). A candidate is a run of 13 to 19 digits, either unbroken
 * or in groups separated by single spaces or dashes, that does not touch a letter or another
 * digit. It counts as a card number when
 *  - its prefix and length belong to a card network (table below),
 *  - it passes the Luhn check, and
 *  - it is not a 13- or 14-digit number with a valid GS1 check digit (an EAN-13 or GTIN-14
 *    barcode: such values are common as product ids and SKUs, and about one in ten of them also
 *    passes Luhn; the only card lengths they overlap are the retired 13-digit Visa and 14-digit
 *    Diners numbers, so little is lost).
 * Letters next to the run (hex hashes, codes like `INV…`) make it a non-candidate, which keeps
 * identifiers that merely contain digits from being mistaken for cards.
 */
export function containsCardNumber(text: string): boolean {
  if (text.length < 13) return false;
  candidatePattern.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = candidatePattern.exec(text)) !== null) {
    const run = match[0];
    const before = match.index > 0 ? text.charCodeAt(match.index - 1) : 0x20;
    const after = text.charCodeAt(match.index + run.length);
    if (isLetterOrDigit(before) || isLetterOrDigit(after)) continue;
    const digits = run.length > 19 || /[ -]/.test(run) ? run.replace(/[ -]/g, '') : run;
    if (isCardNumber(digits)) return true;
  }
  return false;
}

/**
 * Whether a string of digits only is a plausible card number (network, length, Luhn, not GTIN).
 * @internal exported for its own unit test; callers use `containsCardNumber`.
 */
export function isCardNumber(digits: string): boolean {
  const length = digits.length;
  if (length < 13 || length > 19) return false;
  if (!networkAccepts(digits, length)) return false;
  if (!passesLuhn(digits)) return false;
  if ((length === 13 || length === 14) && passesGtinCheck(digits)) return false;
  return true;
}

const candidatePattern = /[0-9]+(?:[ -][0-9]+)*/g;

function isLetterOrDigit(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** Prefix ranges of the card networks and the lengths each issues. */
function networkAccepts(digits: string, length: number): boolean {
  const p1 = digits.charCodeAt(0) - 48;
  const p2 = Number(digits.slice(0, 2));
  const p3 = Number(digits.slice(0, 3));
  const p4 = Number(digits.slice(0, 4));
  // Visa
  if (p1 === 4) return length === 13 || length === 16 || length === 19;
  // Mastercard
  if ((p2 >= 51 && p2 <= 55) || (p4 >= 2221 && p4 <= 2720)) return length === 16;
  // American Express
  if (p2 === 34 || p2 === 37) return length === 15;
  // Discover
  if (p4 === 6011 || p2 === 65 || (p3 >= 644 && p3 <= 649)) return length >= 16 && length <= 19;
  // JCB
  if (p4 >= 3528 && p4 <= 3589) return length >= 16 && length <= 19;
  // Diners Club
  if (p2 === 36 || p2 === 38 || (p3 >= 300 && p3 <= 305)) return length >= 14 && length <= 19;
  // UnionPay
  if (p2 === 62) return length >= 16 && length <= 19;
  return false;
}
