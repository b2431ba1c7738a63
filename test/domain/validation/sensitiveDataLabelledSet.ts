/**
 * A labelled set for the sensitive-data detectors: card numbers that must be caught anywhere,
 * member ids that are contact details, and realistic identifiers that must pass. Generated
 * values come from a fixed-seed generator, so the set is the same on every run.
 */

/** A small deterministic generator (LCG); not for anything but building test data. */
function seededDigits(seed: number): (count: number) => string {
  let state = seed >>> 0;
  return (count) => {
    let out = '';
    for (let i = 0; i < count; i++) {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      out += String((state >>> 16) % 10);
    }
    return out;
  };
}

function hexFrom(next: (count: number) => string, length: number): string {
  const alphabet = '0123456789abcdef';
  let out = '';
  const digits = next(length * 2);
  for (let i = 0; i < length; i++) out += alphabet.charAt((Number(digits[2 * i]) * 10 + Number(digits[2 * i + 1])) % 16);
  return out;
}

/** Appends the Luhn check digit to a digit string. */
function withLuhnDigit(body: string): string {
  for (let d = 0; d <= 9; d++) {
    const candidate = body + String(d);
    let sum = 0;
    for (let i = candidate.length - 1, double = false; i >= 0; i--, double = !double) {
      let v = candidate.charCodeAt(i) - 48;
      if (double) v = v * 2 > 9 ? v * 2 - 9 : v * 2;
      sum += v;
    }
    if (sum % 10 === 0) return candidate;
  }
  throw new Error('unreachable');
}

/** Appends the GS1 check digit to a digit string (EAN-13 from 12 digits, GTIN-14 from 13). */
function withGs1Digit(body: string): string {
  let sum = 0;
  for (let i = body.length - 1, weight = 3; i >= 0; i--, weight = 4 - weight) sum += Number(body[i]) * weight;
  return body + String((10 - (sum % 10)) % 10);
}

const next = seededDigits(20260301);

/** Published test card numbers of the networks. */
const publishedTestCards = [
  '4111111111111111',
  '4242424242424242',
  '4012888888881881',
  '4000056655665556',
  '5555555555554444',
  '5105105105105100',
  '5200828282828210',
  '2223003122003222',
  '2223000048400011',
  '378282246310005',
  '371449635398431',
  '378734493671000',
  '6011111111111117',
  '6011000990139424',
  '3530111333300000',
  '3566002020360505',
  '3056930009020004',
  '6200000000000005',
];

/** [prefix, length] of generated card numbers, covering every network and length class. */
const generatedShapes: readonly (readonly [string, number])[] = [
  ['4', 16],
  ['4', 16],
  ['4', 19],
  ['51', 16],
  ['53', 16],
  ['55', 16],
  ['2221', 16],
  ['2720', 16],
  ['2500', 16],
  ['34', 15],
  ['37', 15],
  ['6011', 16],
  ['65', 16],
  ['644', 16],
  ['649', 19],
  ['3528', 16],
  ['3589', 16],
  ['3550', 19],
  ['36', 14],
  ['38', 16],
  ['300', 14],
  ['305', 16],
  ['62', 16],
  ['62', 19],
  ['6212', 17],
];

const generatedCards = generatedShapes.map(([prefix, length]) => withLuhnDigit(prefix + next(length - prefix.length - 1)));

function grouped(pan: string, separator: string): string {
  if (pan.length === 15) return `${pan.slice(0, 4)}${separator}${pan.slice(4, 10)}${separator}${pan.slice(10)}`;
  return pan.replace(/(\d{4})(?=\d)/g, `$1${separator}`);
}

/** Strings holding a card number; each must be detected in any field. */
export const cardPositives: readonly string[] = [
  ...publishedTestCards,
  ...generatedCards,
  grouped('4111111111111111', ' '),
  grouped('5555555555554444', '-'),
  grouped('378282246310005', ' '),
  grouped('6011111111111117', '-'),
  grouped(generatedCards[5]!, ' '),
  `card ${grouped('4242424242424242', ' ')} exp 12/28`,
  `PAN:${publishedTestCards[4]}`,
  `ref ${generatedCards[10]}`,
  `(${generatedCards[20]})`,
  `"${publishedTestCards[0]}"`,
];

/** A retired 13-digit Visa card number, caught unless it also carries a valid GS1 check digit. */
export const legacyVisa13 = '4222222222222';

const uuids = Array.from({ length: 30 }, () => {
  const h = hexFrom(next, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
});
/** Version-4-shaped UUIDs whose groups are all digits: the worst case for a digit-run scanner. */
const digitUuids = Array.from({ length: 5 }, () => `${next(8)}-${next(4)}-4${next(3)}-8${next(3)}-${next(12)}`);
const hashes = Array.from({ length: 20 }, (_, i) => hexFrom(next, i % 2 === 0 ? 64 : 40));
export const ean13 = Array.from({ length: 60 }, (_, i) => {
  // GS1 prefixes by country: 00-13 US/CA, 30-37 FR, 40-44 DE, 45/49 JP, 50 UK, 69 CN, 76 CH, 80-83 IT, 84 ES, 87 NL, 93 AU
  const prefixes = [
    '0',
    '03',
    '13',
    '30',
    '37',
    '40',
    '41',
    '42',
    '44',
    '45',
    '49',
    '50',
    '69',
    '76',
    '80',
    '84',
    '87',
    '93',
    '471',
    '880',
  ];
  const prefix = prefixes[i % prefixes.length]!;
  return withGs1Digit(prefix + next(12 - prefix.length));
});
const gtin14 = Array.from({ length: 10 }, (_, i) => withGs1Digit(String(i % 9) + next(12)));
const upcA = Array.from({ length: 10 }, () => withGs1Digit('0' + next(10)));

/** Identifiers, codes and texts that must never be taken for card numbers. */
export const cardNegatives: readonly string[] = [
  ...uuids,
  ...digitUuids,
  ...hashes,
  ...ean13,
  ...gtin14,
  ...upcA,
  ...Array.from({ length: 10 }, (_, i) => `M-${String(123 + i * 977).padStart(6, '0')}`),
  ...Array.from({ length: 10 }, () => next(8)),
  ...Array.from({ length: 5 }, () => next(12)),
  // Epoch milliseconds and snowflake-style ids (no card network starts with 1).
  '1772345678901',
  '1772345678901234',
  '1234567890123456789',
  '1509847365218734592',
  // Date-based order and receipt numbers.
  '20260301-000123',
  '2026030100012345',
  '20260301123456789',
  'R-20260301-0042-0007',
  // Fiscal numbers: TW uniform invoice, JP invoice registration, IT e-receipt, CN fapiao code+no, MX CFDI folio, BR NFC-e key.
  'AB-12345678',
  'AB12345678',
  'T1234567890123',
  'T4011001005551',
  'RT 0012-3456',
  '144031900111 01234567',
  '5C3F2A1B-9D8E-4F7A-B6C5-D4E3F2A1B0C9',
  '35260312345678000199650010000012341000012345',
  // SKUs, product codes, employee and category ids, amounts, timestamps.
  'SKU-4006381333931',
  'BURGER-CHZ-01',
  'P-000123',
  'E-0042',
  'CAT-01',
  'A1B2C3D4E5',
  '4006381333931-L',
  '12345678901.25',
  '2026-03-01T12:34:56+09:00',
  '2026-03-01T12:34:56.123456789Z',
  'POINTS:1200',
  'VISA',
  'Apple Pay',
  'Table 12, seat 4',
  'Order #4521 for pick-up at 18:30',
];

/** 16-digit numeric ids starting with 4 (as some POS systems number receipts): a hard case. */
export const numericIdsWithCardPrefix: readonly string[] = Array.from({ length: 200 }, () => '4' + next(15));

/** member_id values that are contact details or card numbers. */
export const memberIdPositives: readonly string[] = [
  'taro.yamada@example.jp',
  'j.smith+loyalty@example.com',
  'MEMBER:alice@example.org',
  'bob_99@mail.example.co.uk',
  'user@sub.example.travel',
  'chen.wei@example.cn',
  'a@b.io',
  'first.last@example-mail.com',
  '+81 90-1234-5678',
  '+819012345678',
  '+1 (555) 123-4567',
  '+44 7700 900123',
  '+886 912 345 678',
  '+8613812345678',
  '(555) 123-4567',
  '555-123-4567',
  '555.123.4567',
  '090-1234-5678',
  '03-1234-5678',
  '02 2345 6789',
  '0912-345-678',
  '09012345678',
  '08012345678',
  '0912345678',
  '13812345678',
  '15912345678',
  '01012345678',
  '07700900123',
  '4111111111111111',
  '4111 1111 1111 1111',
  '5555-5555-5555-4444',
  '378282246310005',
];

/** member_id values that are internal ids and must pass. */
export const memberIdNegatives: readonly string[] = [
  '100234',
  '00012345',
  '12345678',
  '123456789',
  '1234567890',
  '123456789012',
  '0000123456',
  '000000000042',
  '10000001',
  '99999999',
  '2024000123',
  '20240001234',
  '100000000001',
  '5000012345',
  '800123',
  'M-000123',
  'M000123',
  'MEM-2024-000123',
  '2024-000123',
  'LY-8842-1173',
  'CUST_000991',
  'VIP-0007',
  ...uuids.slice(0, 10),
  ...hashes.slice(0, 10),
  'c2FsdGVkLWhhc2gtb2YtbWVtYmVyLTEyMw',
  'k7QxP2mZ9vL4',
  'JP-TYO-0012345',
  'US-000-123-456',
  ...Array.from({ length: 20 }, () => next(8)),
  ...Array.from({ length: 10 }, (_, i) => String(100000 + i * 12345)),
  ...Array.from({ length: 10 }, () => '00' + next(8)),
  // Zero-padded and plain sequence numbers of 6 to 12 digits.
  ...Array.from({ length: 10 }, (_, i) => String(1_000_000 + i * 7919).padStart(10, '0')),
  ...Array.from({ length: 10 }, (_, i) => String(200_000_000_000 + i * 104_729)),
  ...Array.from({ length: 6 }, (_, i) => String(123_456 + i * 31)),
];
