import type { ProblemDetail } from '../../errors/ProblemDetail.js';

/**
 * The business dates a push may name. No POS data of this service's partners predates 2000, so an
 * earlier date is a typo or a default value (`0000-01-01`). The latest is two days after today's
 * UTC date: in the store's favour, a store at UTC+14 whose business day started yesterday evening
 * is still ahead of UTC by at most that much, while a date a year ahead is refused.
 */
const businessDateWindow = { earliest: '2000-01-01', daysAfterToday: 2 } as const;

/** The window in words, for the documents that describe a business date parameter. */
export const businessDateWindowText = `from ${businessDateWindow.earliest} to ${businessDateWindow.daysAfterToday} days after today's UTC date`;

/**
 * The last business date accepted at `now` (YYYY-MM-DD).
 * @internal exported for its own test.
 */
export function latestBusinessDate(now: Date): string {
  return new Date(now.getTime() + businessDateWindow.daysAfterToday * 86_400_000).toISOString().slice(0, 10);
}

/** A problem when `date` (a calendar date YYYY-MM-DD) lies outside the window at `now`. */
export function checkBusinessDate(date: string, now: Date, path: string): ProblemDetail | undefined {
  const latest = latestBusinessDate(now);
  if (date >= businessDateWindow.earliest && date <= latest) return undefined;
  return {
    path,
    message: `must lie between ${businessDateWindow.earliest} and ${latest} (${businessDateWindow.daysAfterToday} days after today's UTC date)`,
  };
}
