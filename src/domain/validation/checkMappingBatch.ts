import type { ProblemDetail } from '../../errors/ProblemDetail.js';
import type { MappingBatch } from '../model/payloads.js';
import { findSensitiveData } from './findSensitiveData.js';

/**
 * Outcome of the checks of a mapping upload. `problems` answer 400 INVALID_PAYLOAD;
 * `unknownStandardCodes` (only looked at when there are no problems) answer 400
 * UNKNOWN_STANDARD_CODE.
 */
export interface MappingBatchCheck {
  readonly problems: ProblemDetail[];
  readonly unknownStandardCodes: ProblemDetail[];
}

/**
 * The rules of a PUT /mappings/transaction-types body that its schema cannot express
 * (contract §2.5, §4.7): source_code unique within the request, standard_code in the standard
 * transaction type list `standardCodes`.
 */
export function checkMappingBatch(batch: MappingBatch, standardCodes: ReadonlySet<string>): MappingBatchCheck {
  const problems: ProblemDetail[] = [];
  const unknownStandardCodes: ProblemDetail[] = [];
  const firstIndex = new Map<string, number>();
  batch.mappings.forEach((entry, index) => {
    const path = `/mappings/${index}`;
    const first = firstIndex.get(entry.source_code);
    if (first === undefined) firstIndex.set(entry.source_code, index);
    else problems.push({ path: `${path}/source_code`, message: `duplicates the source_code of entry ${first} in this request` });
    if (!standardCodes.has(entry.standard_code)) {
      unknownStandardCodes.push({ path: `${path}/standard_code`, message: 'is not in the standard transaction type list' });
    }
  });
  for (const problem of findSensitiveData(batch)) problems.push(problem);
  return { problems, unknownStandardCodes };
}
