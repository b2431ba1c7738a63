import { containsCardNumber, isCardNumber, normalizeForCardScan } from './containsCardNumber.js';

/** What a member_id looks like when it is a directly identifying value the contract forbids. */
export type IdentifyingValueKind = 'email' | 'phone' | 'card';

const emailPattern = /[^\s@]+@[^\s@]+\.\p{L}{2,}/u;

/** Dashes and long-vowel marks that Japanese and other input methods write between digit groups. */
const dashLike = /[\u2010-\u2015\u2212\u30FC\uFF70]/g;
const phoneCharacters = /^[0-9+\-. ()]+$/;

/**
 * National mobile numbers written as bare digits with their trunk or network prefix: Japan
 * (070/080/090 + 8), Taiwan (09 + 8), mainland China (1[3-9] + 9), Korea (010 + 8), United
 * Kingdom (07 + 9). A sequence number only takes these shapes once it passes a billion, and a
 * zero-padded one starts with 00, so ordinary numeric ids are not caught.
 */
const bareMobilePattern = /^(?:0[789]0[0-9]{8}|09[0-9]{8}|1[3-9][0-9]{9}|010[0-9]{8}|07[0-9]{9})$/;

/**
 * Decides whether a member_id is an e-mail address, a phone number or a card number
 * (contract §2.7: member_id is an internal id, never a directly identifying value); undefined
 * when it looks like an ordinary id.
 *
 * Phone rule, chosen to keep false positives low: only digits, spaces, dashes, dots, parentheses
 * and a plus sign, 8 to 15 digits, and either
 *  - a leading `+` (international form),
 *  - parentheses, or three or more digit groups (`555-123-4567`, `090 1234 5678`), or
 *  - a bare national mobile number (see above).
 * Plain digit strings otherwise pass: `100234`, `00012345`, `123456789012` are indistinguishable
 * from sequence numbers, and two-group forms such as `2024-000123` are a common id layout.
 */
export function classifyMemberId(memberId: string): IdentifyingValueKind | undefined {
  // Full-width digits, plus and at signs (what Japanese input methods type) become ASCII first.
  const plain = memberId.normalize('NFKC').replace(dashLike, '-');
  if (plain.includes('@') && emailPattern.test(plain)) return 'email';
  if (looksLikePhoneNumber(plain)) return 'phone';
  if (containsCardNumber(memberId) || isBareCardLike(memberId)) return 'card';
  return undefined;
}

function looksLikePhoneNumber(value: string): boolean {
  const trimmed = value.trim();
  if (!phoneCharacters.test(trimmed)) return false;
  const digits = trimmed.replace(/[^0-9]/g, '');
  if (digits.length < 8 || digits.length > 15) return false;
  if (trimmed.startsWith('+')) return /^\+[0-9]/.test(trimmed) || /^\+ ?\(/.test(trimmed);
  if (trimmed.includes('(') || trimmed.includes(')')) return true;
  const groups = trimmed.split(/[ .-]+/).filter((group) => group.length > 0);
  if (groups.length >= 3) return true;
  return groups.length === 1 && bareMobilePattern.test(digits);
}

/** A member_id that is nothing but a card number, in any digits and with any separators or grouping. */
function isBareCardLike(value: string): boolean {
  const normalized = normalizeForCardScan(value);
  if (normalized === undefined || /[\p{L}]/u.test(normalized)) return false;
  return isCardNumber(normalized.replace(/[^0-9]/g, ''));
}
