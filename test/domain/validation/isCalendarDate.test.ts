import { describe, expect, it } from 'vitest';
import { isCalendarDate } from '../../../src/domain/validation/isCalendarDate.js';

describe('isCalendarDate', () => {
  it.each(['2026-11-20', '2024-02-29', '2000-02-29', '1999-12-31'])('accepts %s', (text) => {
    expect(isCalendarDate(text)).toBe(true);
  });
  it.each(['2026-02-29', '1900-02-29', '2026-13-01', '2026-04-31', '2026-1-01', '20261120', '2026-11-20T00:00:00Z', ''])(
    'refuses %s',
    (text) => {
      expect(isCalendarDate(text)).toBe(false);
    },
  );
});
