import { passesGtinCheck, passesLuhn } from './luhn.js';

/**
 * Payment card number detection (PAN), on text as people and POS systems write card numbers.
 *
 * The text is normalised first ({@link normalizeForCardScan}): NFKC (full-width and other
 * compatibility digits become ASCII), invisible format characters dropped (zero-width spaces and
 * joiners, U+2060, U+FEFF, soft hyphens, bidirectional marks), and the decimal digits of every
 * script mapped to ASCII (Arabic-Indic ٤١١١…, Devanagari, Thai, …).
 *
 * A candidate is then either
 *  - one run of 13 to 19 digits, whatever is next to it (`VISA4111…`, `4111…X` count), or
 *  - digit groups written the way card numbers are printed: a group of 4, then groups of 4 or 6,
 *    then a last group of 1 to 6 digits, 13 to 19 digits in all, separated by short runs (up to 3
 *    characters) of anything that is neither a letter nor a digit: spaces, no-break spaces, `-`,
 *    `.`, `_`, `/`, `  `, ` - `. The window may start at any group, so a card number after a date
 *    or a reference is found.
 * It counts as a card number when
 *  - its prefix and length belong to a card network (table below),
 *  - it passes the Luhn check, and
 *  - it is not a 13- or 14-digit number with a valid GS1 check digit (an EAN-13 or GTIN-14
 *    barcode: such values are common as product ids and SKUs, and about one in ten of them also
 *    passes Luhn; the only card lengths they overlap are the retired 13-digit Visa and 14-digit
 *    Diners numbers, so little is lost).
 * Group shapes keep what merely has digits (dates, times, UUIDs, phone numbers, amounts) from
 * being joined into a candidate; a plain run of digits stays ambiguous: a 16-digit numeric id under
 * a card prefix that passes Luhn cannot be told from a card.
 */
export function containsCardNumber(text: string): boolean {
  if (text.length < shortestCard) return false;
  const normalized = normalizeForCardScan(text);
  if (normalized === undefined) return false;
  return someDigitChain(normalized, chainHoldsCard);
}

/**
 * The text as the card scan reads it, or undefined when it cannot hold 13 digits. ASCII text with
 * fewer than 13 digits (most strings) is answered without normalising.
 */
export function normalizeForCardScan(text: string): string | undefined {
  let digits = 0;
  let ascii = true;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x30 && code <= 0x39) digits++;
    else if (code > 0x7f) ascii = false;
  }
  if (ascii) return digits >= shortestCard ? text : undefined;
  let out = '';
  for (const ch of text.normalize('NFKC')) {
    if (formatCharacter.test(ch)) continue;
    const code = ch.codePointAt(0) ?? 0;
    if (code > 0x7f && decimalDigit.test(ch)) {
      out += String(digitValue(code));
      digits++;
    } else {
      if (code >= 0x30 && code <= 0x39) digits++;
      out += ch;
    }
  }
  return digits >= shortestCard ? out : undefined;
}

/** Whether a string of ASCII digits only is a plausible card number (network, length, Luhn, not GTIN). */
export function isCardNumber(digits: string): boolean {
  const length = digits.length;
  if (length < shortestCard || length > 19) return false;
  if (!networkAccepts(digits, length)) return false;
  if (!passesLuhn(digits)) return false;
  if ((length === 13 || length === 14) && passesGtinCheck(digits)) return false;
  return true;
}

const formatCharacter = /\p{Cf}/u;
const decimalDigit = /\p{Nd}/u;
const letterOrDigit = /[\p{L}\p{N}]/u;
/** The groups of a chain (the scan has mapped every decimal digit to ASCII). */
const asciiDigitRuns = /[0-9]+/g;
/** Fewest digits of a card number. */
const shortestCard = 13;
/** Longest run of separators between two digit groups of one candidate. */
const maxSeparatorLength = 3;

/**
 * Digit runs that follow one another with only short separator runs between them; stops early
 * when `found` accepts a chain. A chain is kept as where it starts and how many digits it holds,
 * and cut into its groups only when it holds the 13 digits a card number needs: most strings with
 * digits (timestamps, dates, references) never have a chain that long, and the scan then
 * allocates nothing for them.
 */
function someDigitChain(text: string, found: (chain: readonly string[]) => boolean): boolean {
  let chainStart = -1;
  let digits = 0;
  let groupStart = -1;
  let separator = 0;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : -1;
    if (code >= 0x30 && code <= 0x39) {
      if (groupStart < 0) groupStart = i;
      if (chainStart < 0) chainStart = i;
      separator = 0;
      continue;
    }
    if (groupStart >= 0) {
      digits += i - groupStart;
      groupStart = -1;
    }
    const breaks = code < 0 || isLetterOrDigit(text, i, code) || ++separator > maxSeparatorLength;
    if (breaks) {
      if (digits >= shortestCard && found(text.slice(chainStart, i).match(asciiDigitRuns) ?? [])) return true;
      chainStart = -1;
      digits = 0;
      if (code >= 0 && separator <= maxSeparatorLength) separator = 0;
    }
  }
  return false;
}

/** Letters and digits end a candidate; ASCII is judged without a regular expression. */
function isLetterOrDigit(text: string, i: number, code: number): boolean {
  if (code < 0x80) return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
  return letterOrDigit.test(String.fromCodePoint(text.codePointAt(i) ?? 0));
}

function chainHoldsCard(groups: readonly string[]): boolean {
  for (const [start, first] of groups.entries()) {
    if (isCardNumber(first)) return true;
    if (first.length !== 4) continue;
    let digits = first;
    for (let end = start + 1; end < groups.length; end++) {
      const group = groups[end] ?? '';
      if (group.length > 6) break;
      digits += group;
      if (digits.length > 19) break;
      if (digits.length >= shortestCard && isCardNumber(digits)) return true;
      // Only a last group may be shorter than 4 or 5 long; a window goes on through groups of 4 or 6.
      if (group.length !== 4 && group.length !== 6) break;
    }
  }
  return false;
}

/** The value of a decimal digit of any script: its distance from the first digit of its run of ten. */
const digitValues = new Map<number, number>();
function digitValue(code: number): number {
  let value = digitValues.get(code);
  if (value === undefined) {
    let start = code;
    while (decimalDigit.test(String.fromCodePoint(start - 1))) start--;
    value = (code - start) % 10;
    digitValues.set(code, value);
  }
  return value;
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
