import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import type { RowProblem } from '../../storage/tableLimits.js';

/**
 * Turns what storage would refuse in the row of one entry of a body into problems at that entry's
 * path (or at the field that is too large, when storage names one that the body has).
 */
export function rowProblemDetails(
  path: string,
  problems: readonly RowProblem[],
  fields: Readonly<Record<string, string>> = {},
): ProblemDetail[] {
  return problems.map((problem) => {
    const field = problem.property === undefined ? undefined : fields[problem.property];
    return { path: field === undefined ? path : `${path}/${field}`, message: `is too large to store: ${problem.message}` };
  });
}
