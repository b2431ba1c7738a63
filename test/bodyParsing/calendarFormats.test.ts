import { fullFormats } from 'ajv-formats/dist/formats';
import { describe, expect, it } from 'vitest';
import { calendarFormats } from '../../src/bodyParsing/calendarFormats.js';

const library = (name: 'date' | 'date-time') => (fullFormats[name] as { validate: (value: string) => boolean }).validate;

const dateTimes = [
  '2026-11-20T07:12:00-05:00',
  '2026-11-20T07:12:00Z',
  '2026-11-20T07:12:00.123456789+09:00',
  '2024-02-29T23:59:59Z',
  '2023-02-29T12:00:00Z',
  '1900-02-29T12:00:00Z',
  '2000-02-29T12:00:00Z',
  '0000-02-29T12:00:00Z',
  '2026-00-10T12:00:00Z',
  '2026-13-10T12:00:00Z',
  '2026-04-31T12:00:00Z',
  '2026-04-00T12:00:00Z',
  '2026-01-32T12:00:00Z',
  '2026-01-01T24:00:00Z',
  '2026-01-01T24:59:30+01:00',
  '2026-01-01T23:60:00Z',
  '2026-12-31T23:59:60Z',
  '2026-12-31T23:59:60.5Z',
  '2026-12-31T22:59:60-01:00',
  '2026-12-31T12:59:60Z',
  '2026-01-01T12:00:00+24:00',
  '2026-01-01T12:00:00+23:60',
  '2026-01-01T12:00:00+0530',
  '2026-01-01T12:00:00+05',
  '2026-01-01T12:00:00',
  '2026-01-01T12:00:00.Z',
  '2026-01-01t12:00:00z',
  '2026-01-01 12:00:00Z',
  '2026-01-01\u00a012:00:00Z',
  '2026-01-01T12:00:00ZZ',
  '2026-01-01T12:00:00Z ',
  '2026-01-01TT12:00:00Z',
  '2026-1-01T12:00:00Z',
  '2026-01-01T1:00:00Z',
  '2026-01-01T12:00:00+05:30x',
  '2026-01-01T12:00:00-00:00',
  '٢٠٢٦-01-01T12:00:00Z',
  '',
  'T',
];

const dates = [
  '2026-11-20',
  '2024-02-29',
  '2023-02-29',
  '2026-04-31',
  '2026-00-01',
  '2026-12-00',
  '2026-1-01',
  '2026-01-01x',
  '20260101',
  '2026/01/01',
  '٢٠٢٦-01-01',
  '',
];

/** Every value of `seeds` with each character replaced, in turn, by each of `alphabet`. */
function mutations(seeds: readonly string[], alphabet: string): string[] {
  const out: string[] = [];
  for (const seed of seeds) {
    for (let i = 0; i < seed.length; i++) {
      for (const ch of alphabet) out.push(seed.slice(0, i) + ch + seed.slice(i + 1));
      out.push(seed.slice(0, i) + seed.slice(i + 1));
    }
  }
  return out;
}

const alphabet = '0123569:-+.TtZz x\u2003';

describe('calendarFormats', () => {
  it('answers every date-time as ajv-formats does, including the values one character away from them', () => {
    const values = [...dateTimes, ...mutations(dateTimes.slice(0, 8), alphabet)];
    const differing = values.filter((value) => calendarFormats['date-time'].validate(value) !== library('date-time')(value));
    expect(differing).toEqual([]);
    // The corpus holds both answers in number, or the comparison above would prove little.
    const accepted = values.filter((value) => library('date-time')(value)).length;
    expect(accepted).toBeGreaterThan(100);
    expect(values.length - accepted).toBeGreaterThan(1000);
  });

  it('answers every date as ajv-formats does, including the values one character away from them', () => {
    const values = [...dates, ...mutations(dates.slice(0, 4), alphabet)];
    const differing = values.filter((value) => calendarFormats.date.validate(value) !== library('date')(value));
    expect(differing).toEqual([]);
    expect(values.filter((value) => library('date')(value)).length).toBeGreaterThan(20);
  });
});
