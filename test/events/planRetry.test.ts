import { describe, expect, it } from 'vitest';
import { deliveryPolicy } from '../../src/events/DeliveryPolicy.js';
import { planRetry, retryDelaySeconds } from '../../src/events/planRetry.js';
import { isWebhookDeliveryMessage } from '../../src/events/WebhookDeliveryMessage.js';

const middle = (): number => 0.5;
const createdAt = new Date('2026-03-01T00:00:00Z');
const at = (seconds: number): Date => new Date(createdAt.getTime() + seconds * 1000);

describe('the retry schedule', () => {
  it('doubles from 10 s up to 2 hours', () => {
    const delays = Array.from({ length: 14 }, (_, i) => retryDelaySeconds(deliveryPolicy, i + 1, middle));
    expect(delays).toEqual([10, 20, 40, 80, 160, 320, 640, 1280, 2560, 5120, 7200, 7200, 7200, 7200]);
  });

  it('spreads each delay by a quarter either way', () => {
    for (let failures = 1; failures <= 15; failures++) {
      const base = Math.min(10 * 2 ** (failures - 1), 7200);
      expect(retryDelaySeconds(deliveryPolicy, failures, () => 0)).toBe(Math.ceil(base * 0.75));
      expect(retryDelaySeconds(deliveryPolicy, failures, () => 0.999999)).toBeLessThanOrEqual(Math.ceil(base * 1.25));
      expect(retryDelaySeconds(deliveryPolicy, failures, () => 0.999999)).toBeGreaterThan(base);
    }
  });

  it('retries for 24 hours after the event, the last attempt at the 24-hour mark, then dead-letters', () => {
    let now = 0;
    const attemptsAt = [now];
    for (let failures = 1; ; failures++) {
      const plan = planRetry(deliveryPolicy, { createdAt, now: at(now), failures, random: Math.random });
      if (plan.kind === 'dead-letter') break;
      now += plan.delaySeconds;
      attemptsAt.push(now);
      expect(attemptsAt.length).toBeLessThan(100);
    }
    expect(attemptsAt.at(-1)).toBe(24 * 3600);
    expect(attemptsAt.length).toBeGreaterThanOrEqual(18);
    expect(attemptsAt.length).toBeLessThanOrEqual(30);
  });

  it("honours the receiver's Retry-After, up to the schedule's longest delay and within the window", () => {
    expect(planRetry(deliveryPolicy, { createdAt, now: at(0), failures: 1, retryAfterSeconds: 600, random: middle })).toEqual({
      kind: 'retry',
      delaySeconds: 600,
    });
    expect(planRetry(deliveryPolicy, { createdAt, now: at(0), failures: 1, retryAfterSeconds: 5, random: middle })).toEqual({
      kind: 'retry',
      delaySeconds: 10,
    });
    expect(planRetry(deliveryPolicy, { createdAt, now: at(0), failures: 1, retryAfterSeconds: 10 ** 8, random: middle })).toEqual({
      kind: 'retry',
      delaySeconds: 7200,
    });
    expect(planRetry(deliveryPolicy, { createdAt, now: at(86_000), failures: 3, retryAfterSeconds: 3600, random: middle })).toEqual({
      kind: 'retry',
      delaySeconds: 400,
    });
  });

  it('dead-letters once the window is over, however few the attempts', () => {
    expect(planRetry(deliveryPolicy, { createdAt, now: at(86_400), failures: 1, random: middle })).toEqual({ kind: 'dead-letter' });
    expect(planRetry(deliveryPolicy, { createdAt, now: at(90_000), failures: 1, random: middle })).toEqual({ kind: 'dead-letter' });
  });
});

describe('delivery messages', () => {
  const message = {
    partnerId: 'p1',
    eventId: 'evt_1',
    eventType: 'reconciliation.completed',
    createdAt: createdAt.toISOString(),
    attempts: 0,
  };

  it('are recognised with and without the attempt fields', () => {
    expect(isWebhookDeliveryMessage(message)).toBe(true);
    expect(isWebhookDeliveryMessage({ ...message, attempts: 3, firstAttemptAt: createdAt.toISOString(), lastErrorClass: 'TIMEOUT' })).toBe(
      true,
    );
  });

  it.each([
    ['no partner', { partnerId: '' }],
    ['an unknown event type', { eventType: 'day.closed' }],
    ['a bad time', { createdAt: 'yesterday' }],
    ['negative attempts', { attempts: -1 }],
    ['fractional attempts', { attempts: 1.5 }],
    ['a bad first attempt time', { firstAttemptAt: 'soon' }],
  ])('refuse %s', (_label, change) => {
    expect(isWebhookDeliveryMessage({ ...message, ...change })).toBe(false);
  });

  it('refuse what is not an object', () => {
    expect(isWebhookDeliveryMessage('evt_1')).toBe(false);
    expect(isWebhookDeliveryMessage(null)).toBe(false);
  });
});
