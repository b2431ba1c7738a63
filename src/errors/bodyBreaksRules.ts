import { ApiError } from './ApiError.js';
import type { ProblemDetail } from './ProblemDetail.js';

/**
 * The 400 INVALID_PAYLOAD for a body the schema accepted but the contract's rules refuse, as the
 * service answers it and the partner kit, finding the same problems offline, answers it too.
 */
export function bodyBreaksRules(problems: readonly ProblemDetail[]): ApiError {
  return new ApiError('INVALID_PAYLOAD', 'The body breaks validation rules.', problems);
}
