import { describe, expect, it } from 'vitest';
import { formatAmount as formatWithLocale } from '../../console/src/format/formatAmount.js';
import { addDays, datesBetween, formatBusinessDate, rangeAround, rangeStart } from '../../console/src/format/formatDate.js';
import { compareValues } from '../../console/src/table/compareValues.js';
import { toCsv } from '../../console/src/table/toCsv.js';

/** Intl separates the code with a no-break space; compared here as a plain one. */
const formatAmount = (amount: string, currency: string, locale: string) =>
  formatWithLocale(amount, currency, locale).replace(/\u00a0/g, ' ');

describe('amounts in the console', () => {
  it("show the currency's digits and never lose a digit to a float", () => {
    expect(formatAmount('12.5', 'USD', 'en-US')).toBe('USD 12.50');
    expect(formatAmount('1250', 'JPY', 'en-US')).toBe('JPY 1,250');
    expect(formatAmount('1.250', 'KWD', 'en-US')).toBe('KWD 1.250');
    // ISO 4217's places, as the API writes them, where the browser's locale data has none.
    expect(formatAmount('100.50', 'LBP', 'en-US')).toBe('LBP 100.50');
    expect(formatAmount('12.500', 'IQD', 'en-US')).toBe('IQD 12.500');
    expect(formatAmount('0', 'LBP', 'en-US')).toBe('LBP 0.00');
    expect(formatAmount('-3.5', 'EUR', 'de-DE')).toBe('-3,50 EUR');
    // 2^53 + 1 with cents: a float would print ...992.
    expect(formatAmount('9007199254740993.01', 'USD', 'en-US')).toBe('USD 9,007,199,254,740,993.01');
    expect(formatAmount('not-a-number', 'USD', 'en-US')).toBe('not-a-number');
  });
});

describe('business dates in the console', () => {
  it('are formatted in the locale without a time zone moving them', () => {
    expect(formatBusinessDate('2026-11-20', 'en-US')).toBe('Nov 20, 2026');
    expect(formatBusinessDate('2026-11-20', 'de-DE')).toBe('20.11.2026');
    // A date that does not exist is shown as written, not rolled over into the next year.
    expect(formatBusinessDate('2026-13-01', 'en-US')).toBe('2026-13-01');
  });

  it('span ranges inclusively and across month ends', () => {
    expect(datesBetween('2026-02-27', '2026-03-02')).toEqual(['2026-02-27', '2026-02-28', '2026-03-01', '2026-03-02']);
    expect(datesBetween('2026-03-02', '2026-03-01')).toEqual([]);
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
    expect(rangeStart('2026-03-14', 14)).toBe('2026-03-01');
    // A hand-edited link's end is handed on as written, for the API to refuse by name.
    expect(rangeStart('2026-13-01', 14)).toBe('2026-13-01');
    expect(rangeStart('2026-1-5', 14)).toBe('2026-1-5');
  });

  it("around a day end no later than today, which the API's window allows", () => {
    // A day long past: its week before and after.
    expect(rangeAround('2026-03-01', '2026-11-29')).toEqual({ from: '2026-02-23', to: '2026-03-08' });
    // A recent day: a week after it would lie past the window (today + 2 days), so today ends it.
    expect(rangeAround('2026-11-27', '2026-11-29')).toEqual({ from: '2026-11-16', to: '2026-11-29' });
    expect(rangeAround('2026-11-29', '2026-11-29')).toEqual({ from: '2026-11-16', to: '2026-11-29' });
    // A store ahead of the operator's date: the range still shows the day.
    expect(rangeAround('2026-11-30', '2026-11-29')).toEqual({ from: '2026-11-17', to: '2026-11-30' });
  });
});

describe('table sorting', () => {
  const collator = new Intl.Collator('en', { numeric: true });
  it('orders amounts exactly, counts by value, text naturally, empty cells last', () => {
    const amounts = ['10.00', '9.99', '-0.01', '100000000000000000.01', '100000000000000000.00'].map((decimal) => ({ decimal }));
    expect([...amounts].sort((a, b) => compareValues(a, b, collator)).map((a) => a.decimal)).toEqual([
      '-0.01',
      '9.99',
      '10.00',
      '100000000000000000.00',
      '100000000000000000.01',
    ]);
    expect(['S-10', 'S-9', undefined, 'S-100'].sort((a, b) => compareValues(a, b, collator))).toEqual(['S-9', 'S-10', 'S-100', undefined]);
    expect([10, 9, 100].sort((a, b) => compareValues(a, b, collator))).toEqual([9, 10, 100]);
  });
});

describe('CSV export', () => {
  it('quotes what needs quoting and defuses formula-like text, keeping negative numbers', () => {
    expect(
      toCsv(
        ['a', 'b'],
        [
          ['x,y', 'say "hi"'],
          ['=SUM(A1)', '-12.50'],
          ['-cmd', '@x'],
          ['line\nbreak', '+1'],
        ],
      ),
    ).toBe('a,b\r\n"x,y","say ""hi"""\r\n\'=SUM(A1),-12.50\r\n\'-cmd,\'@x\r\n"line\nbreak",\'+1\r\n');
  });
});
