import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from '../support/startTestService.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

describe('GET /health', () => {
  it('answers 200 {"status":"ok"} without a key', async () => {
    const response = await service.call(null, 'GET', 'health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('ignores an invalid key', async () => {
    const response = await service.call({ key: 'not-a-key' }, 'GET', 'health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'ok' });
  });
});

describe('routing', () => {
  it('answers 404 for an unknown route, with or without a key', async () => {
    const partner = await service.createPartner({ stores: [] });
    for (const who of [null, partner]) {
      const response = await service.call(who, 'GET', 'no-such-thing');
      expect(response.status).toBe(404);
      expect(response.body).toBeUndefined();
    }
    const outsidePrefix = await fetch(`${service.baseUrl.replace(/\/pos\/v1$/, '')}/pos/v2/health`);
    expect(outsidePrefix.status).toBe(404);
  });

  it('answers 404 with an empty body (never 405) for a known route with another method, as the host does', async () => {
    const partner = await service.createPartner({ stores: [] });
    const cases: [string, string][] = [
      ['POST', 'health'],
      ['GET', 'trade-records'],
      ['POST', 'stores'],
      ['DELETE', 'mappings/transaction-types'],
      ['PUT', 'daily-close'],
    ];
    for (const [method, path] of cases) {
      const response = await service.call(partner, method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body, `${method} ${path}`).toBeUndefined();
      expect(response.headers.get('allow')).toBeNull();
    }
  });
});
