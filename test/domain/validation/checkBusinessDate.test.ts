import { describe, expect, it } from 'vitest';
import { checkBusinessDate, latestBusinessDate } from '../../../src/domain/validation/checkBusinessDate.js';

describe('checkBusinessDate', () => {
  const now = new Date('2026-03-02T23:30:00Z');

  it('accepts 2000-01-01 up to two days after today’s UTC date', () => {
    expect(latestBusinessDate(now)).toBe('2026-03-04');
    for (const date of ['2000-01-01', '2019-06-30', '2026-03-02', '2026-03-03', '2026-03-04']) {
      expect(checkBusinessDate(date, now, '/business_date'), date).toBeUndefined();
    }
  });

  it('refuses earlier and later dates, with the window in the message', () => {
    for (const date of ['0000-01-01', '1970-01-01', '1999-12-31', '2026-03-05', '2027-03-01', '9999-12-31']) {
      expect(checkBusinessDate(date, now, '/business_date'), date).toEqual({
        path: '/business_date',
        message: "must lie between 2000-01-01 and 2026-03-04 (2 days after today's UTC date)",
      });
    }
  });

  it('moves with the clock: a store at UTC+14 is never ahead of the window', () => {
    // 23:59 UTC is already 13:59 of the next day in Kiribati (UTC+14).
    expect(checkBusinessDate('2026-03-03', new Date('2026-03-01T23:59:00Z'), '/d')).toBeUndefined();
    expect(checkBusinessDate('2026-03-04', new Date('2026-03-01T23:59:00Z'), '/d')).toEqual(expect.objectContaining({ path: '/d' }));
  });
});
