import { describe, expect, it } from 'vitest';
import { isCalendarDate } from '../../../src/domain/validation/isCalendarDate.js';

describe('isCalendarDate', () => {
  // The years 0 to 99 are years of their own, not 1900 to 1999 (0096 is a leap year, 1996 too; 0100 is not).
  it.each(['2026-11-20', '2024-02-29', '2000-02-29', '1999-12-31', '0000-01-01', '0050-06-15', '0096-02-29', '9999-12-31'])(
    'accepts %s',
    (text) => {
      expect(isCalendarDate(text)).toBe(true);
    },
  );
  it.each([
    '2026-02-29',
    '1900-02-29',
    '0100-02-29',
    '2026-00-10',
    '2026-01-00',
    '2026-13-01',
    '2026-04-31',
    '2026-1-01',
    '20261120',
    '2026-11-20T00:00:00Z',
    '',
  ])('refuses %s', (text) => {
    expect(isCalendarDate(text)).toBe(false);
  });
});
