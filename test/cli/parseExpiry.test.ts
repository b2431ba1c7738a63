import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/parseArgs.js';
import { parseExpiry } from '../../src/cli/parseExpiry.js';

const now = new Date('2026-05-01T12:00:00Z');

describe('parseExpiry', () => {
  it('gives no expiry when none is typed, and an ISO instant for a date or a date-time', () => {
    expect(parseExpiry(undefined, now)).toBeUndefined();
    expect(parseExpiry('2026-06-01', now)).toBe('2026-06-01T00:00:00.000Z');
    expect(parseExpiry('2026-05-01T14:30:00+02:00', now)).toBe('2026-05-01T12:30:00.000Z');
  });

  it('refuses what is not a date and a moment that is not in the future, as usage errors', () => {
    expect(() => parseExpiry('next week', now)).toThrow(UsageError);
    expect(() => parseExpiry('next week', now)).toThrow('--expires must be an ISO 8601 date or date-time');
    expect(() => parseExpiry('2026-05-01T12:00:00Z', now)).toThrow('--expires must be in the future');
  });

  it('takes every strict ISO form: a leap day, minutes only, a fraction, Z or an offset either side of UTC', () => {
    expect(parseExpiry('2028-02-29', now)).toBe('2028-02-29T00:00:00.000Z');
    expect(parseExpiry('2027-01-01T09:00Z', now)).toBe('2027-01-01T09:00:00.000Z');
    expect(parseExpiry('2027-01-01T09:00:00.5-05:00', now)).toBe('2027-01-01T14:00:00.500Z');
    expect(parseExpiry('2027-01-01T09:00:00.123+00:00', now)).toBe('2027-01-01T09:00:00.123Z');
    expect(parseExpiry(new Date('2027-03-04T05:06:07.089Z').toISOString(), now)).toBe('2027-03-04T05:06:07.089Z');
  });

  it('refuses a day that does not exist instead of moving it into the next month', () => {
    for (const text of ['2027-02-30', '2027-06-31', '2027-02-29', '2027-13-01', '2027-00-10', '2027-02-30T00:00:00Z']) {
      expect(() => parseExpiry(text, now), text).toThrow(UsageError);
      expect(() => parseExpiry(text, now), text).toThrow(/^--expires .*YYYY-MM-DD .*Z, \+hh:mm or -hh:mm/);
    }
  });

  it("refuses a date-time without its zone, which would be read in the operator's own time zone", () => {
    for (const text of ['2027-01-01T09:00', '2027-01-01T09:00:00', '2027-01-01T09:00:00.000']) {
      expect(() => parseExpiry(text, now), text).toThrow('--expires must be an ISO 8601 date or date-time with its zone');
    }
  });

  it('refuses forms Date.parse reads loosely: other orders, names, spaces, lower case, out-of-range times and zones', () => {
    for (const text of [
      '12/01/2027',
      '2027/12/01',
      'December 1, 2027',
      '1 Dec 2027',
      '2027-12-01 09:00Z',
      '2027-12-01t09:00z',
      '2027-12-01T24:00Z',
      '2027-12-01T09:60Z',
      '2027-12-01T09:00:60Z',
      '2027-12-01T09:00+24:00',
      '2027-12-01T09:00+0100',
      '2027-12',
      '+002027-12-01',
      ' 2027-12-01',
      '2027-12-01\n',
    ]) {
      expect(() => parseExpiry(text, now), JSON.stringify(text)).toThrow(UsageError);
    }
  });
});
