import { describe, expect, it } from 'vitest';
import { classifyMemberId } from '../../../src/domain/validation/classifyMemberId.js';
import { containsCardNumber, isCardNumber } from '../../../src/domain/validation/containsCardNumber.js';
import { hasCurrencyPlaces } from '../../../src/domain/validation/hasCurrencyPlaces.js';
import { isCountryCode, listCountryCodes } from '../../../src/domain/validation/isCountryCode.js';
import { isLocaleTag } from '../../../src/domain/validation/isLocaleTag.js';
import { isTimeZone } from '../../../src/domain/validation/isTimeZone.js';
import { escapePointerToken, isDisplaySafeName } from '../../../src/domain/validation/jsonPointer.js';
import { passesGtinCheck, passesLuhn } from '../../../src/domain/validation/luhn.js';

describe('hasCurrencyPlaces', () => {
  it.each([
    ['100', 0, true],
    ['100.0', 0, false],
    ['-5', 0, true],
    ['1.50', 2, true],
    ['1.5', 2, false],
    ['1', 2, false],
    ['-0.01', 2, true],
    ['1.500', 2, false],
    ['1.234', 3, true],
    ['1.23', 3, false],
    ['1.2345', 4, true],
  ] as const)('%s with %i places → %s', (value, digits, expected) => {
    expect(hasCurrencyPlaces(value, digits)).toBe(expected);
  });
});

describe('Luhn and GS1 check digits', () => {
  it('computes Luhn', () => {
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('79927398710')).toBe(false);
  });

  it('computes GS1 check digits for EAN-13, UPC-A and EAN-8', () => {
    expect(passesGtinCheck('4006381333931')).toBe(true);
    expect(passesGtinCheck('4006381333932')).toBe(false);
    expect(passesGtinCheck('036000291452')).toBe(true);
    expect(passesGtinCheck('96385074')).toBe(true);
  });
});

describe('card number rule', () => {
  it('needs a network prefix with a matching length', () => {
    expect(isCardNumber('4111111111111111')).toBe(true);
    expect(isCardNumber('411111111111111')).toBe(false); // 15 digits: not a Visa length
    expect(isCardNumber('378282246310005')).toBe(true);
    expect(isCardNumber('3782822463100050')).toBe(false); // 16 digits: not an Amex length
    expect(isCardNumber('1111111111111117')).toBe(false); // no network starts with 1
    expect(isCardNumber('4111111111111112')).toBe(false); // fails Luhn
  });

  it('reads a run of 13 to 19 digits whatever touches it, but not a longer run', () => {
    expect(containsCardNumber('X4111111111111111')).toBe(true);
    expect(containsCardNumber('4111111111111111X')).toBe(true);
    expect(containsCardNumber('VISA4111111111111111EXP1228')).toBe(true);
    expect(containsCardNumber('41111111111111110000')).toBe(false);
    expect(containsCardNumber('card=4111111111111111;')).toBe(true);
  });

  it('joins groups laid out like a card across up to three characters that are neither letters nor digits', () => {
    for (const text of [
      '4111 1111 1111 1111',
      '4111  1111  1111  1111',
      '4111.1111.1111.1111',
      '4111_1111_1111_1111',
      '4111/1111/1111/1111',
      '4111 - 1111 - 1111 - 1111',
      '3782 822463 10005',
    ]) {
      expect(containsCardNumber(text), text).toBe(true);
    }
    // A longer gap, or a letter between the groups, ends the candidate.
    expect(containsCardNumber('4111 -- / 1111 1111 1111')).toBe(false);
    expect(containsCardNumber('4111 x 1111 1111 1111')).toBe(false);
    // Groups not laid out like a card are not joined: pairs, dates, times.
    expect(containsCardNumber('41 11 11 11 11 11 11 11')).toBe(false);
    expect(containsCardNumber('30-05-2026 12:34:56 4521')).toBe(false);
  });

  it('normalises first: compatibility digits, digits of other scripts, invisible characters', () => {
    for (const text of [
      '４１１１１１１１１１１１１１１１',
      '٤١١١١١١١١١١١١١١١',
      '۴۱۱۱ ۱۱۱۱ ۱۱۱۱ ۱۱۱۱',
      '४१११११११११११११११',
      '๔๑๑๑๑๑๑๑๑๑๑๑๑๑๑๑',
      '𝟒𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏𝟏',
      '4111\u200b1111\u200b1111\u200b1111',
      '4\u200d1\u200d1\u200d1111111111111',
      '4111\u00a01111\u00a01111\u00a01111',
      '4111\u00ad1111\u20601111\ufeff1111',
    ]) {
      expect(containsCardNumber(text), JSON.stringify(text)).toBe(true);
    }
    expect(containsCardNumber('４１１１１１１１１１１１１１１２')).toBe(false); // fails Luhn
  });
});

describe('classifyMemberId', () => {
  it.each([
    ['alice@example.com', 'email'],
    ['+1 555 123 4567', 'phone'],
    ['(03) 1234-5678', 'phone'],
    ['555 123 4567', 'phone'],
    ['09012345678', 'phone'],
    ['4111-1111-1111-1111', 'card'],
  ] as const)('%s → %s', (value, kind) => {
    expect(classifyMemberId(value)).toBe(kind);
  });

  it.each([['100234'], ['12345678'], ['0000123456'], ['123456789012'], ['M-000123'], ['2024-000123'], ['+'], ['@'], ['a@b']])(
    '%s is an ordinary id',
    (value) => {
      expect(classifyMemberId(value)).toBeUndefined();
    },
  );
});

describe('isCountryCode', () => {
  it('lists the 249 assigned codes, each known to the runtime', () => {
    const codes = listCountryCodes();
    expect(codes).toHaveLength(249);
    const names = new Intl.DisplayNames(['en'], { type: 'region' });
    for (const code of codes) expect(names.of(code), code).not.toBe(code);
    expect(isCountryCode('JP')).toBe(true);
    expect(isCountryCode('jp')).toBe(false);
    expect(isCountryCode('UK')).toBe(false);
  });
});

describe('isTimeZone and isLocaleTag', () => {
  it('uses the runtime zone data and caches the answer', () => {
    expect(isTimeZone('Asia/Taipei')).toBe(true);
    expect(isTimeZone('Asia/Taipei')).toBe(true);
    expect(isTimeZone('Asia/Taipeh')).toBe(false);
    expect(isTimeZone('-05:00')).toBe(false);
  });

  it('refuses a zone name in another letter case than its own, and takes a link by its own name', () => {
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('america/new_york')).toBe(false);
    expect(isTimeZone('AMERICA/NEW_YORK')).toBe(false);
    expect(isTimeZone('utc')).toBe(false);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('US/Eastern')).toBe(true);
    expect(isTimeZone('Etc/GMT+5')).toBe(true);
  });

  it('accepts well-formed BCP 47 tags only', () => {
    expect(isLocaleTag('zh-Hant-TW')).toBe(true);
    expect(isLocaleTag('en-GB-oxendict')).toBe(true);
    expect(isLocaleTag('en-US-')).toBe(false);
    expect(isLocaleTag('x')).toBe(false);
  });
});

describe('JSON Pointer helpers', () => {
  it('escapes tokens', () => {
    expect(escapePointerToken('a/b~c')).toBe('a~1b~0c');
    expect(escapePointerToken(3)).toBe('3');
  });

  it('lets only short, plain names into a path', () => {
    expect(isDisplaySafeName('customer_name')).toBe(true);
    expect(isDisplaySafeName('en-US')).toBe(true);
    expect(isDisplaySafeName('<b>')).toBe(false);
    expect(isDisplaySafeName('a'.repeat(65))).toBe(false);
    expect(isDisplaySafeName('')).toBe(false);
  });
});
