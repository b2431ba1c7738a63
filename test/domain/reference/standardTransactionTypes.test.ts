import { describe, expect, it } from 'vitest';
import { standardTransactionTypes } from '../../../src/domain/reference/standardTransactionTypes.js';

describe('the standard transaction type list', () => {
  it('is versioned by a date', () => {
    expect(standardTransactionTypes.version).toBe('2026-11-01');
  });

  it('holds the contract codes with their revenue rule and sign', () => {
    const rules = Object.fromEntries(standardTransactionTypes.data.map((t) => [t.code, [t.is_revenue, t.amount_sign]]));
    expect(rules).toMatchObject({
      SALE: [true, 1],
      REFUND: [true, -1],
      VOID: [false, 0],
      RETURN: [true, -1],
      EXCHANGE: [true, null],
      NO_SALE: [false, 0],
      DEPOSIT: [false, 1],
      TRAINING: [false, 0],
    });
  });

  it('names every type in English and Japanese and describes it', () => {
    for (const type of standardTransactionTypes.data) {
      expect(type.name['en-US'], type.code).toBeTruthy();
      expect(type.name['ja-JP'], type.code).toBeTruthy();
      expect(type.description.length, type.code).toBeGreaterThan(20);
    }
  });

  it('is frozen all the way down', () => {
    expect(Object.isFrozen(standardTransactionTypes)).toBe(true);
    expect(Object.isFrozen(standardTransactionTypes.data)).toBe(true);
    expect(standardTransactionTypes.data.every((t) => Object.isFrozen(t) && Object.isFrozen(t.name))).toBe(true);
  });
});
