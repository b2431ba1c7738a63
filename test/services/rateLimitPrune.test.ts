import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitPruneSchedule } from '../../src/functions/functionTable.js';
import { runTimerFunction } from '../support/runTimerFunction.js';
import { startTestService, type TestService } from '../support/startTestService.js';
import { partnerWithStores, tradeBatch } from '../support/httpScenario.js';

/** A clock the test moves forward, so a window is over without waiting for it. */
let offsetMs = 0;
const clock = (): Date => new Date(Date.now() + offsetMs);

describe('the rate-limit window prune (timer)', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ services: { clock } });
  });
  afterAll(async () => {
    await service.stop();
  });

  const windowRows = async (): Promise<number> => {
    let n = 0;
    for await (const _ of service.services.storage.tables.rateLimits.listEntities()) n += 1;
    return n;
  };

  const runPrune = (): Promise<string[]> => runTimerFunction(service, 'pruneRateLimitWindows', rateLimitPruneSchedule);

  it("removes the row a push's window left once the window is over, and a later push counts afresh", async () => {
    const partner = await partnerWithStores(service);
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch({ recordCount: 1 }))).status).toBe(202);
    expect(await windowRows()).toBe(1);

    // Within the window, and for the few after it, the row stays.
    expect(await runPrune()).toContain('pruneRateLimitWindows: 0 rate-limit windows that ended removed');
    expect(await windowRows()).toBe(1);

    offsetMs = 7 * 60_000;
    expect(await runPrune()).toContain('pruneRateLimitWindows: 1 rate-limit windows that ended removed');
    expect(await windowRows()).toBe(0);

    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch({ recordCount: 1 }))).status).toBe(202);
    expect(await windowRows()).toBe(1);
  });
});
