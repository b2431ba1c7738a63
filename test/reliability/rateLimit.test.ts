import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';
import { buildDayBatch, businessDateOf, preparePartner } from './support/dayScenario.js';
import { seededRandom } from './support/random.js';
import { ackOf, errorOf } from '../support/responseBodies.js';

let service: TestService;
let now = Date.parse('2026-03-01T12:00:05Z');
const random = seededRandom(1111);
let limited: TestPartner;
let other: TestPartner;

beforeAll(async () => {
  // A clock the test moves: the limit window is one minute.
  service = await startTestService({ services: { clock: () => new Date(now) } });
  limited = await preparePartner(service, random);
  other = await preparePartner(service, random);
  expect((await service.hq('partner', 'set-rate-limit', limited.partnerId, '5')).code).toBe(0);
});
afterAll(async () => {
  await service.stop();
});

describe('rate limit', () => {
  it('a burst over the limit gets 429 with Retry-After, other partners are unaffected, and a refused batch is accepted later', async () => {
    const batches = Array.from({ length: 12 }, (_, i) => buildDayBatch(random, 'NYC-0001', businessDateOf(7000 + i), 1, `rl-${i}`));
    const answers = await Promise.all(batches.map((b) => service.call(limited, 'POST', 'trade-records', b)));
    const refused = answers.map((a, i) => ({ a, b: batches[i]! })).filter(({ a }) => a.status === 429);
    expect(answers.filter((a) => a.status === 202)).toHaveLength(5);
    expect(refused).toHaveLength(7);
    for (const { a } of refused) {
      expect(errorOf(a).code).toBe('RATE_LIMITED');
      const retryAfter = Number(a.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
    }
    // Another partner in the same minute.
    const theirs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        service.call(other, 'POST', 'trade-records', buildDayBatch(random, 'NYC-0001', businessDateOf(7100 + i), 1, `rl-o-${i}`)),
      ),
    );
    expect(theirs.map((a) => a.status)).toEqual(theirs.map(() => 202));
    // Other endpoints of the limited partner are not limited.
    expect((await service.call(limited, 'GET', 'mappings/transaction-types')).status).toBe(200);
    // After Retry-After the refused batch_id is a first receipt.
    now += Number(refused[0]!.a.headers.get('retry-after')) * 1000;
    const later = await service.call(limited, 'POST', 'trade-records', refused[0]!.b);
    expect(later.status).toBe(202);
    expect(ackOf(later).status).toBe('ACCEPTED');
  });
});
