import { checkBusinessDate } from '../../domain/validation/checkBusinessDate.js';
import { ApiError } from '../../errors/ApiError.js';
import { hqLimits } from '../hqLimits.js';

/**
 * A business date of an HQ route (a calendar date, checked by its schema) must lie in the window
 * pushes are held to (checkBusinessDate): no data lies outside it, and a close's due time outside
 * it can fall in the year 10000, which no timestamp of a response can say. Else 400 INVALID_QUERY.
 */
export function requireBusinessDate(date: string, now: Date, path: string): void {
  const problem = checkBusinessDate(date, now, path);
  if (problem) throw new ApiError('INVALID_QUERY', undefined, [problem]);
}

/**
 * `from`..`to` (calendar dates, checked by the query schema) must lie in the business-date window,
 * run forwards and span at most `hqLimits.maxGridDays` days inclusive; else 400 INVALID_QUERY.
 * Shared by every ranged HQ route.
 */
export function requireDateRange(from: string, to: string, now: Date): void {
  const outside = [checkBusinessDate(from, now, '/from'), checkBusinessDate(to, now, '/to')].filter((problem) => problem !== undefined);
  if (outside.length > 0) throw new ApiError('INVALID_QUERY', undefined, outside);
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days < 1) throw new ApiError('INVALID_QUERY', undefined, [{ path: '/to', message: 'must not be before from' }]);
  if (days > hqLimits.maxGridDays) {
    throw new ApiError('INVALID_QUERY', undefined, [
      { path: '/to', message: `must be at most ${hqLimits.maxGridDays} days from from, inclusive` },
    ]);
  }
}
