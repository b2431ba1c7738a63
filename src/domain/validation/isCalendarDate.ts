const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * `YYYY-MM-DD` naming a day that exists (2026-02-29 does not), in the proleptic Gregorian
 * calendar of every year from 0000 to 9999, as the schemas' `format: date` reads it. Counted, not
 * built with `Date.UTC`, which takes the years 0 to 99 for 1900 to 1999.
 */
export function isCalendarDate(text: string): boolean {
  const m = datePattern.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return daysInMonth !== undefined && day >= 1 && day <= daysInMonth;
}
