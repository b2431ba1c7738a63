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
});
