import { describe, expect, it } from 'vitest';
import { isStampTooFarAhead } from '../../../src/domain/validation/isStampTooFarAhead.js';

const now = new Date('2026-11-29T12:00:00Z');

describe('isStampTooFarAhead', () => {
  it('takes a clock up to a day ahead and refuses one further, to the last fractional digit', () => {
    expect(isStampTooFarAhead('2026-11-30T12:00:00Z', now)).toBe(false);
    expect(isStampTooFarAhead('2026-11-30T12:00:00.000001Z', now)).toBe(true);
    expect(isStampTooFarAhead('2026-11-29T12:00:00Z', now)).toBe(false);
    expect(isStampTooFarAhead('1950-01-01T00:00:00Z', now)).toBe(false);
    expect(isStampTooFarAhead('2026-12-01T01:00:00+09:00', now)).toBe(true);
    expect(isStampTooFarAhead('2026-11-30T20:00:00+09:00', now)).toBe(false);
    expect(isStampTooFarAhead('9999-12-31T23:59:59Z', now)).toBe(true);
  });
});
