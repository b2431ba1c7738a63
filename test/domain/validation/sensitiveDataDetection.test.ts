import { describe, expect, it } from 'vitest';
import { classifyMemberId } from '../../../src/domain/validation/classifyMemberId.js';
import { containsCardNumber } from '../../../src/domain/validation/containsCardNumber.js';
import { passesGtinCheck, passesLuhn } from '../../../src/domain/validation/luhn.js';
import {
  cardNegatives,
  cardPositiveCases,
  cardPositives,
  ean13,
  legacyVisa13,
  memberIdNegatives,
  memberIdPositives,
  numericIdsWithCardPrefix,
} from './sensitiveDataLabelledSet.js';

function rate(values: readonly string[], detect: (value: string) => boolean): { hits: string[]; rate: number } {
  const hits = values.filter(detect);
  return { hits, rate: hits.length / values.length };
}

describe('sensitive-data detection on the labelled set', () => {
  it('has the intended size', () => {
    expect(cardPositives.length).toBeGreaterThanOrEqual(300);
    expect(cardNegatives.length).toBeGreaterThanOrEqual(300);
    expect(memberIdPositives.length).toBeGreaterThanOrEqual(30);
    expect(memberIdNegatives.length).toBeGreaterThanOrEqual(100);
  });

  it('catches every card number and no realistic identifier; prints recall and false-positive rate', () => {
    const recall = rate(cardPositives, containsCardNumber);
    const falsePositives = rate(cardNegatives, containsCardNumber);
    const hard = rate(numericIdsWithCardPrefix, containsCardNumber);
    const barcodesLuhnUnderVisaPrefix = ean13.filter((code) => code.startsWith('4') && passesLuhn(code));
    const member = rate(memberIdPositives, (v) => classifyMemberId(v) !== undefined);
    const memberFalse = rate(memberIdNegatives, (v) => classifyMemberId(v) !== undefined);
    console.log(
      [
        `card rule: recall ${recall.hits.length}/${cardPositives.length} = ${(recall.rate * 100).toFixed(1)}%`,
        `card rule: false positives on realistic ids ${falsePositives.hits.length}/${cardNegatives.length} = ${(falsePositives.rate * 100).toFixed(1)}%`,
        `card rule: 16-digit numeric ids starting with 4 flagged ${hard.hits.length}/${numericIdsWithCardPrefix.length} = ${(hard.rate * 100).toFixed(1)}% (Luhn passes 1 in 10)`,
        `EAN-13 barcodes starting with 4 that also pass Luhn (spared by the GS1 check): ${barcodesLuhnUnderVisaPrefix.length}/${ean13.filter((c) => c.startsWith('4')).length}`,
        `member_id rule: recall ${member.hits.length}/${memberIdPositives.length} = ${(member.rate * 100).toFixed(1)}%`,
        `member_id rule: false positives ${memberFalse.hits.length}/${memberIdNegatives.length} = ${(memberFalse.rate * 100).toFixed(1)}%`,
      ].join('\n'),
    );
    // The only misses allowed are 13/14-digit numbers that are also valid EAN-13/GTIN-14 barcodes.
    for (const { text, pan } of cardPositiveCases.filter((c) => !containsCardNumber(c.text))) {
      expect(pan, JSON.stringify(text)).toMatch(/^[0-9]{13,14}$/);
      expect(passesGtinCheck(pan), JSON.stringify(text)).toBe(true);
    }
    expect(recall.rate).toBeGreaterThanOrEqual(0.95);
    expect(falsePositives.hits).toEqual([]);
    expect(member.hits).toEqual(memberIdPositives);
    expect(memberFalse.hits).toEqual([]);
    // A numeric id that is Luhn-valid under a card prefix cannot be told from a card number.
    expect(hard.rate).toBeGreaterThan(0.05);
    expect(hard.rate).toBeLessThan(0.15);
  });

  it('catches the retired 13-digit Visa format unless it is also a valid EAN-13', () => {
    expect(containsCardNumber(legacyVisa13)).toBe(true);
  });
});
