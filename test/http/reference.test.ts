import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contractStandardCodes } from '../fixtures/masterDataFixtures.js';
import { startTestService, type TestService } from '../support/startTestService.js';
import { referenceListOf } from '../support/responseBodies.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

describe('GET /reference/transaction-types', () => {
  it('answers the versioned standard list with every code the contract names', async () => {
    const partner = await service.createPartner({ stores: [] });
    const response = await service.call(partner, 'GET', 'reference/transaction-types');
    expect(response.status).toBe(200);
    const list = referenceListOf(response);
    expect(Object.keys(list).sort()).toEqual(['data', 'version']);
    expect(list.version).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(Number.isNaN(Date.parse(list.version))).toBe(false);

    const byCode = new Map(list.data.map((t) => [t.code, t]));
    expect(byCode.size).toBe(list.data.length);
    for (const code of contractStandardCodes) expect(byCode.has(code), code).toBe(true);
    for (const type of list.data) {
      expect(typeof type.code).toBe('string');
      expect(typeof type.is_revenue).toBe('boolean');
      expect([1, -1, 0, null]).toContain(type.amount_sign);
      expect(typeof type.description).toBe('string');
      expect(Object.keys(type.name).length).toBeGreaterThan(0);
      for (const [locale, text] of Object.entries(type.name)) {
        expect(locale).toMatch(/^[a-z]{2,3}(-[A-Za-z0-9]+)*$/);
        expect(typeof text).toBe('string');
      }
    }
    expect(byCode.get('EXCHANGE')?.amount_sign).toBeNull();
    expect(byCode.get('SALE')).toMatchObject({ is_revenue: true, amount_sign: 1 });
    expect(byCode.get('REFUND')?.amount_sign).toBe(-1);
    expect(byCode.get('RETURN')?.amount_sign).toBe(-1);
    expect(byCode.get('VOID')?.is_revenue).toBe(false);
    expect(byCode.get('NO_SALE')?.is_revenue).toBe(false);
  });

  it('needs the API key (refused by the host: 401, no body)', async () => {
    const response = await service.call(null, 'GET', 'reference/transaction-types');
    expect(response.status).toBe(401);
    expect(response.body).toBeUndefined();
  });
});
