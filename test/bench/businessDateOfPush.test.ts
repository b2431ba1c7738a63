import { describe, expect, it } from 'vitest';
import { benchBusinessDate } from '../../bench/benchBusinessDate.js';
import { businessDateOfPush } from '../../bench/businessDateOfPush.js';

describe('businessDateOfPush', () => {
  it('gives each push of a partner its own day, counting back from the benchmark date across months', () => {
    expect(businessDateOfPush(0)).toBe(benchBusinessDate);
    expect(businessDateOfPush(1)).toBe('2026-02-28');
    const days = new Set(Array.from({ length: 400 }, (_, n) => businessDateOfPush(n)));
    expect(days.size).toBe(400);
  });
});
