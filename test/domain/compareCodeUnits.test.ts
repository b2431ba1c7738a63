import { describe, expect, it } from 'vitest';
import { compareCodeUnits } from '../../src/domain/compareCodeUnits.js';

describe('compareCodeUnits', () => {
  it("sorts as Table Storage keeps keys, not in a locale's order", () => {
    const ids = ['b', 'a', 'B', 'é', 'A-2', 'A-10', 'z'];
    expect([...ids].sort(compareCodeUnits)).toEqual(['A-10', 'A-2', 'B', 'a', 'b', 'z', 'é']);
    // A locale puts lower and upper case together and é beside e: not the order storage lists in.
    expect([...ids].sort((a, b) => a.localeCompare(b, 'en'))).not.toEqual([...ids].sort(compareCodeUnits));
  });

  it('is 0 only for equal strings', () => {
    expect(compareCodeUnits('S-1', 'S-1')).toBe(0);
    expect(compareCodeUnits('S-1', 'S-10')).toBeLessThan(0);
    expect(compareCodeUnits('S-10', 'S-1')).toBeGreaterThan(0);
  });
});
