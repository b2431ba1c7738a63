// The service's own rule, bundled into the page: the console takes exactly the dates the API does.
import { isCalendarDate } from '../../../src/domain/validation/isCalendarDate.js';

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A business date (`2026-11-20`, a calendar day with no time zone) in the operator's locale. It is
 * formatted in UTC so that no time zone moves it to the day before.
 */
export function formatBusinessDate(date: string, locale?: string, style: 'medium' | 'short' = 'medium'): string {
  const match = isoDate.exec(date);
  // Not a calendar date: shown as written, not rolled over (2026-13-01 is not 1 January 2027).
  if (!match || !isCalendarDate(date)) return date;
  const utc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Intl.DateTimeFormat(locale, { dateStyle: style, timeZone: 'UTC' }).format(utc);
}

/** Weekday and day of month, for the grid's column heads (`Fri 20`). */
export function formatGridDay(date: string, locale?: string): string {
  const match = isoDate.exec(date);
  if (!match) return date;
  const utc = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return new Intl.DateTimeFormat(locale, { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' }).format(utc);
}

/** An instant (ISO 8601 with offset) in the operator's locale and time zone. */
export function formatInstant(instant: string, locale?: string): string {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return instant;
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
}

/** Every calendar date from `from` to `to` inclusive (ISO strings); empty when `to` is before `from`. */
export function datesBetween(from: string, to: string): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  const end = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) return [];
  const dates: string[] = [];
  for (let ms = start; ms <= end && dates.length <= 366; ms += 86_400_000) dates.push(new Date(ms).toISOString().slice(0, 10));
  return dates;
}

/**
 * The first date of a range of `days` days ending at `to`. A `to` that is not a calendar date (a
 * hand-edited link) is handed back as it is, for the API to refuse by name: date arithmetic on it
 * would throw while the view renders.
 */
export function rangeStart(to: string, days: number): string {
  return isCalendarDate(to) ? addDays(to, 1 - days) : to;
}

/**
 * `date` moved by `days` (ISO strings).
 * @internal exported for its own test; the console uses it through rangeAround.
 */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The grid's range around a business date (a calendar date): two weeks, the date's week after it
 * included, but ending no later than `today` unless the date itself is later. The HQ API refuses a
 * date more than two days after today's UTC date, so a range a week past a recent day would be
 * refused whole.
 */
export function rangeAround(date: string, today: string): { from: string; to: string } {
  const weekAfter = addDays(date, 7);
  const last = date > today ? date : today;
  const to = weekAfter < last ? weekAfter : last;
  return { from: rangeStart(to, 14), to };
}
