import { describe, expect, it } from 'vitest';
import { checkMappingBatch } from '../../../src/domain/validation/checkMappingBatch.js';
import { buildMappingBatch, contractStandardCodes } from '../../fixtures/masterDataFixtures.js';

describe('checkMappingBatch', () => {
  it('accepts the fixture', () => {
    expect(checkMappingBatch(buildMappingBatch(), contractStandardCodes)).toEqual({ problems: [], unknownStandardCodes: [] });
  });

  it('rejects a source_code repeated in the request as a payload problem', () => {
    const batch = buildMappingBatch();
    batch.mappings.push({ source_code: '02', standard_code: 'RETURN' });
    expect(checkMappingBatch(batch, contractStandardCodes)).toEqual({
      problems: [{ path: '/mappings/4/source_code', message: 'duplicates the source_code of entry 1 in this request' }],
      unknownStandardCodes: [],
    });
  });

  it('reports a standard_code outside the list separately, for UNKNOWN_STANDARD_CODE', () => {
    const batch = buildMappingBatch();
    batch.mappings[2]!.standard_code = 'TIP_OUT';
    expect(checkMappingBatch(batch, contractStandardCodes)).toEqual({
      problems: [],
      unknownStandardCodes: [{ path: '/mappings/2/standard_code', message: 'is not in the standard transaction type list' }],
    });
    expect(checkMappingBatch(batch, new Set([...contractStandardCodes, 'TIP_OUT'])).unknownStandardCodes).toEqual([]);
  });

  it('is case-sensitive about standard codes', () => {
    const batch = buildMappingBatch();
    batch.mappings[0]!.standard_code = 'sale';
    expect(checkMappingBatch(batch, contractStandardCodes).unknownStandardCodes).toHaveLength(1);
  });
});
