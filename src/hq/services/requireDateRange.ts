import { ApiError } from '../../errors/ApiError.js';
import { hqLimits } from '../hqLimits.js';

/**
 * `from`..`to` (calendar dates, checked by the query schema) must run forwards and span at most
 * `hqLimits.maxGridDays` days inclusive; else 400 INVALID_QUERY. Shared by every ranged HQ route.
 */
export function requireDateRange(from: string, to: string): void {
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days < 1) throw new ApiError('INVALID_QUERY', undefined, [{ path: '/to', message: 'must not be before from' }]);
  if (days > hqLimits.maxGridDays) {
    throw new ApiError('INVALID_QUERY', undefined, [
      { path: '/to', message: `must be at most ${hqLimits.maxGridDays} days from from, inclusive` },
    ]);
  }
}
