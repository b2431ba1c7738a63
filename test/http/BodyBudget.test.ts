import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/ApiError.js';
import { BodyBudget, partnerShareOf } from '../../src/http/BodyBudget.js';

const mb = 1024 * 1024;

function refusal(action: () => void): ApiError {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('not refused');
}

describe('partnerShareOf', () => {
  it('is half of the budget, never less than one largest body, never more than the budget', () => {
    expect(partnerShareOf(64 * mb, 5 * mb)).toBe(32 * mb);
    expect(partnerShareOf(25 * mb, 5 * mb)).toBe(Math.floor(12.5 * mb));
    expect(partnerShareOf(8 * mb, 5 * mb)).toBe(5 * mb);
    expect(partnerShareOf(5 * mb, 5 * mb)).toBe(5 * mb);
  });
});

describe('BodyBudget', () => {
  it("refuses a partner over its share while another partner's body still fits", () => {
    const budget = new BodyBudget(100, 50);
    const a = budget.forPartner('a');
    a.take(30);
    a.take(20);
    const overShare = refusal(() => {
      a.take(1);
    });
    expect(overShare.code).toBe('SERVICE_UNAVAILABLE');
    expect(overShare.retryAfterSeconds).toBeGreaterThan(0);
    expect(overShare.message).toContain('your share');
    // Read for pushes and webhook registrations alike, so it names no push-only field.
    expect(overShare.message).toContain('same request');
    expect(overShare.message).not.toContain('batch_id');
    expect(budget.heldBy('a')).toBe(50);
    budget.forPartner('b').take(50);
    expect(budget.inUse).toBe(100);
    // The whole is spent: refused whoever asks, with the instance's own reason.
    expect(
      refusal(() => {
        budget.forPartner('c').take(1);
      }).message,
    ).toContain('busy with other large requests');
  });

  it("gives a partner's bytes back to its share and to the whole", () => {
    const budget = new BodyBudget(100, 50);
    const a = budget.forPartner('a');
    a.take(50);
    a.give(20);
    expect(budget.heldBy('a')).toBe(30);
    expect(budget.inUse).toBe(30);
    a.take(20);
    a.give(50);
    expect(budget.heldBy('a')).toBe(0);
    expect(budget.inUse).toBe(0);
  });

  it('a refused take holds nothing, of the share or of the whole', () => {
    const budget = new BodyBudget(100, 50);
    budget.forPartner('b').take(50);
    budget.forPartner('c').take(10);
    const a = budget.forPartner('a');
    // Within its share, not within the whole; then over its share.
    expect(
      refusal(() => {
        a.take(45);
      }).message,
    ).toContain('busy with other large requests');
    expect(
      refusal(() => {
        a.take(51);
      }).message,
    ).toContain('your share');
    expect(budget.heldBy('a')).toBe(0);
    expect(budget.inUse).toBe(60);
  });
});
