/**
 * Milliseconds since the Unix epoch of a UTC calendar time (month 1–12). Unlike `Date.UTC`, which
 * reads the years 0 to 99 as 1900 to 1999, every year stays itself: the contract's timestamps
 * carry four-digit years, and `0099` is before `1950`.
 */
export function utcMillis(year: number, month: number, day: number, hour: number, minute: number, second: number): number {
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getTime();
}
