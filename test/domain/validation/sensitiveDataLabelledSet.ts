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

/** Digits of another script: `zero` is the code point of its 0. */
function inDigits(text: string, zero: number): string {
  return text.replace(/[0-9]/g, (d) => String.fromCodePoint(zero + Number(d)));
}

/** Inserts `mark` after every `every` characters of the digits. */
function sprinkled(pan: string, mark: string, every: number): string {
  let out = '';
  for (let i = 0; i < pan.length; i++) out += (i > 0 && i % every === 0 ? mark : '') + pan.charAt(i);
  return out;
}

const allCards = [...publishedTestCards, ...generatedCards];

/**
 * How card numbers reach a POS's free-text fields: every separator and Unicode spelling people,
 * keyboards and copy-paste produce. Each is applied to every card (43 cards × the spellings).
 */
const spellings: readonly ((pan: string) => string)[] = [
  (pan) => grouped(pan, '.'),
  (pan) => grouped(pan, '_'),
  (pan) => grouped(pan, '/'),
  (pan) => grouped(pan, '  '),
  (pan) => grouped(pan, '\u00a0'),
  (pan) => grouped(pan, '\u202f'),
  (pan) => grouped(pan, '\u2009'),
  (pan) => grouped(pan, '\u3000'),
  (pan) => grouped(pan, ' - '),
  (pan) => sprinkled(pan, '\u200b', 4),
  (pan) => sprinkled(pan, '\u200c', 3),
  (pan) => sprinkled(pan, '\u200d', 1),
  (pan) => sprinkled(pan, '\u2060', 4),
  (pan) => sprinkled(pan, '\ufeff', 5),
  (pan) => sprinkled(pan, '\u00ad', 4),
  (pan) => inDigits(pan, 0xff10),
  (pan) => inDigits(grouped(pan, '\u3000'), 0xff10),
  (pan) => inDigits(pan, 0x0660),
  (pan) => inDigits(grouped(pan, ' '), 0x06f0),
  (pan) => inDigits(pan, 0x0966),
  (pan) => inDigits(pan, 0x09e6),
  (pan) => inDigits(pan, 0x0e50),
  (pan) => inDigits(pan, 0x1d7ce),
  (pan) => inDigits(pan.slice(0, 8), 0xff10) + pan.slice(8),
  (pan) => `VISA${pan}`,
  (pan) => `${pan}X`,
  (pan) => `card:${pan}exp1228`,
  (pan) => `paid with ${grouped(pan, ' ')} exp 12/28`,
  (pan) => `ref 2026 ${grouped(pan, '-')}`,
  (pan) => `カード番号：${inDigits(grouped(pan, '－'), 0xff10)}`,
];

/** Strings holding a card number, with the card number each holds; each must be detected in any field. */
export const cardPositiveCases: readonly { readonly text: string; readonly pan: string }[] = (() => {
  const cases = new Map<string, string>();
  const add = (text: string, pan: string) => cases.set(text, pan);
  for (const pan of allCards) add(pan, pan);
  add(grouped('4111111111111111', ' '), '4111111111111111');
  add(grouped('5555555555554444', '-'), '5555555555554444');
  add(grouped('378282246310005', ' '), '378282246310005');
  add(grouped('6011111111111117', '-'), '6011111111111117');
  add(grouped(generatedCards[5]!, ' '), generatedCards[5]!);
  add(`card ${grouped('4242424242424242', ' ')} exp 12/28`, '4242424242424242');
  add(`PAN:${publishedTestCards[4]}`, publishedTestCards[4]!);
  add(`ref ${generatedCards[10]}`, generatedCards[10]!);
  add(`(${generatedCards[20]})`, generatedCards[20]!);
  add(`"${publishedTestCards[0]}"`, publishedTestCards[0]!);
  for (const pan of allCards) for (const spell of spellings) add(spell(pan), pan);
  return [...cases].map(([text, pan]) => ({ text, pan }));
})();

export const cardPositives: readonly string[] = cardPositiveCases.map((c) => c.text);

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

const baseNegatives: readonly string[] = [
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

/** Store-day receipt and order numbers as POS systems print them, dates in several layouts. */
const dates = Array.from({ length: 40 }, (_, i) => new Date(Date.UTC(2024, 0, 1) + i * 17 * 86_400_000).toISOString().slice(0, 10));
const receiptNumbers = dates.flatMap((date, i) => {
  const [y, m, d] = date.split('-') as [string, string, string];
  const seq = String(1 + i * 37).padStart(6, '0');
  return [
    `${y}${m}${d}-${seq}`,
    `NYC-0001-${y}${m}${d}-${seq}`,
    `${d}.${m}.${y} ${String(i % 24).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}:${String((i * 13) % 60).padStart(2, '0')}`,
    `${d}/${m}/${y} ${seq}`,
    `${y} ${m}${d} 0042 ${seq.slice(2)}`,
    `レシート№ ${inDigits(`${y}${m}${d}－${seq}`, 0xff10)}`,
    `${inDigits(`${y}-${m}-${d}`, 0x0660)} ${inDigits(seq, 0x0660)}`,
  ];
});
/** Other numbers that reach free-text fields: phones, IBANs, tracking numbers, amounts, barcodes written out. */
const otherNumbers = [
  '+81 90-1234-5678',
  '+81\u00a090\u00a01234\u00a05678',
  '+1 (212) 555-0188 ext. 1234',
  '+44 20 7946 0958',
  '+886 2 2345 6789',
  '０９０－１２３４－５６７８',
  'DE89 3704 0044 0532 0130 00',
  'GB29 NWBK 6016 1331 9268 19',
  'FR14 2004 1010 0505 0001 3M02 606',
  'NL91 ABNA 0417 1643 00',
  'JP-1234567-001',
  '1Z999AA10123456784',
  '9400 1000 0000 0000 0000 00',
  '9205 5000 0000 0000 0000 00',
  '7946 0958 1234',
  '4 006381 333931',
  '0 12345 67890 5',
  '49 12345 67890 4',
  '1,234,567,890.12',
  '1.234.567.890,12',
  '12 345 678 901,23',
  '¥1,234,567,890',
  'v1.2.3456.7890',
  '35.6812, 139.7671',
  'Lat 40.7128 Lon -74.0060',
  'POINTS:120000',
  'POINTS: 1 200 000',
  'ISBN 978-4-06-512345-1',
  'ISBN 978 0 306 40615 7',
  'Batch 2026/03/01 #0042 of 0100',
  'Tisch 12 · Sitz 4 · 2026-03-01 18:30',
  '注文番号：２０２６０３０１０００１２３４５',
  'Order 2026-03-01-000123-07',
  'INV/2026/03/000123',
  'PO 2026-0301-0042',
  'Shift 3 till 12 2026-03-01 06:00-14:00',
];

/** Identifiers, codes and texts that must never be taken for card numbers. */
export const cardNegatives: readonly string[] = [...baseNegatives, ...receiptNumbers, ...otherNumbers];

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
  // As Japanese input methods type them: full-width digits, plus and at signs, other dashes.
  '０９０１２３４５６７８',
  '＋８１ ９０ １２３４ ５６７８',
  '090\u20101234\u20105678',
  '090ー1234ー5678',
  'john＠example.com',
  'john@example.рф',
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
