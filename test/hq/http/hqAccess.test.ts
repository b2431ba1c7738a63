/**
 * Who may open which route, over real HTTP on the local host: every HQ route refuses partner keys
 * (403) and unknown keys (401), every admin action refuses viewers (403), and operator keys open
 * no partner route (401).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionTable } from '../../../src/functions/functionTable.js';
import { hqFunctions } from '../../../src/hq/http/hqFunctions.js';
import { errorCodeOf } from '../../support/responseBodies.js';
import { startTestService, type TestOperator, type TestService } from '../../support/startTestService.js';
import { objectOf } from '../support/hqBodies.js';

const partnerId = 'acme-access';

let service: TestService;
let partner: { key: string };
let viewer: TestOperator;
let admin: TestOperator;

beforeAll(async () => {
  service = await startTestService();
  expect((await service.hq('partner', 'create', partnerId)).code).toBe(0);
  expect((await service.hq('store', 'register', partnerId, 'S-1')).code).toBe(0);
  partner = { key: (await service.hq('key', 'issue', partnerId)).out.at(-1) ?? '' };
  viewer = await service.createOperator('viewer');
  admin = await service.createOperator('admin');
});
afterAll(async () => {
  await service.stop();
});

/** A concrete path for a route template: sample values for its parameters, valid queries. */
function pathOf(route: string): string {
  const filled = route
    .replace('{partner_id}', partnerId)
    .replace('{store_id}', 'S-1')
    .replace('{business_date}', '2026-03-01')
    .replace('{key_id}', 'key-00000000');
  if (filled.endsWith('/store-days')) return `${filled}?from=2026-03-01&to=2026-03-02`;
  if (filled.endsWith('/batches')) return `${filled}?state=pending`;
  if (filled.endsWith('/sales')) return `${filled}?from=2026-03-01&to=2026-03-31&group_by=store,day`;
  return filled;
}

const hqRoutes = hqFunctions.map((fn) => ({
  name: fn.name,
  method: fn.methods[0] ?? 'GET',
  path: pathOf(fn.route),
  admin: fn.methods[0] !== 'GET',
}));
const partnerRoutes = functionTable
  .filter((fn) => fn.trigger === 'http' && fn.authLevel === 'function' && !fn.route.startsWith('hq/'))
  .map((fn) =>
    fn.trigger === 'http'
      ? { name: fn.name, method: fn.methods[0] ?? 'GET', path: pathOf(fn.route.replace('{store_id}', 'S-1')) }
      : undefined,
  )
  .filter((r) => r !== undefined);

describe('HQ routes', () => {
  it('cover the documented read and admin routes', () => {
    expect(hqRoutes.filter((r) => !r.admin).map((r) => r.path.split('?')[0])).toEqual(
      expect.arrayContaining(['hq/v1/whoami', 'hq/v1/store-days', 'hq/v1/batches', 'hq/v1/partners', 'hq/v1/sales', 'hq/v1/unmapped']),
    );
    expect(hqRoutes.filter((r) => r.admin)).toHaveLength(7);
  });

  it.each(hqRoutes)('$name refuses a request without a key (401 from the host, no body)', async ({ method, path }) => {
    const response = await service.callHost(null, method, path);
    expect(response.status).toBe(401);
    expect(response.body).toBeUndefined();
  });

  it("unknown HQ routes and methods get the host's 404 without a body", async () => {
    for (const [method, path] of [
      ['GET', 'hq/v1/nothing-here'],
      ['DELETE', 'hq/v1/partners'],
      ['DELETE', 'hq/v1/webhook-failures'],
    ] as const) {
      const response = await service.callHost(admin, method, path);
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body).toBeUndefined();
    }
  });

  it.each(hqRoutes)('$name refuses a partner key with 403 OPERATOR_KEY_REQUIRED', async ({ method, path }) => {
    const response = await service.callHost(partner, method, path, method === 'GET' ? undefined : {});
    expect(response.status).toBe(403);
    expect(errorCodeOf(response)).toBe('OPERATOR_KEY_REQUIRED');
  });

  it.each(hqRoutes)('$name refuses a key nobody issued (401)', async ({ method, path }) => {
    const response = await service.callHost({ key: 'x'.repeat(43) }, method, path);
    expect(response.status).toBe(401);
  });

  it.each(hqRoutes.filter((r) => r.admin))('$name refuses a viewer with 403 ADMIN_ROLE_REQUIRED', async ({ method, path }) => {
    const response = await service.callHost(viewer, method, path, {});
    expect(response.status).toBe(403);
    expect(errorCodeOf(response)).toBe('ADMIN_ROLE_REQUIRED');
  });

  it.each(hqRoutes.filter((r) => !r.admin))('$name opens for a viewer', async ({ method, path }) => {
    const response = await service.callHost(viewer, method, path);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  });

  it('answer, served or refused, with nosniff, no-store and x-request-id, and log one line naming the operator and its key id', async () => {
    const served = await service.callHost(viewer, 'GET', 'hq/v1/whoami');
    const refused = await service.callHost(viewer, 'POST', `hq/v1/partners/${partnerId}/deactivate`, {});
    expect([served.status, refused.status]).toEqual([200, 403]);
    for (const response of [served, refused]) {
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const requestId = response.headers.get('x-request-id') ?? '';
      expect(requestId).not.toBe('');
      const lines = service.logs.filter((line) => line.endsWith(` request_id=${requestId}`));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^INFO \[\w+\] (GET|POST) \/hq\/v1\/\S+ \d{3} \d+ms operator=\S+ key_id=\S+ request_id=\S+$/);
      expect(lines[0]).toContain(` ${response.status} `);
      expect(lines[0]).toContain(` operator=${viewer.name} key_id=${viewer.keyId} `);
      expect(lines[0]).not.toContain(viewer.key);
    }
  });

  it('whoami names the operator and role, never the key', async () => {
    const body = objectOf(await service.callHost(admin, 'GET', 'hq/v1/whoami'));
    expect(body).toEqual({ operator: admin.name, role: 'admin', key_id: admin.keyId, expires_at: null });
    expect(JSON.stringify(body)).not.toContain(admin.key);
  });
});

describe('partner routes', () => {
  it('exist', () => {
    expect(partnerRoutes.length).toBeGreaterThanOrEqual(7);
  });

  it.each(partnerRoutes)('$name refuses an operator key with 401 UNAUTHORIZED', async ({ method, path }) => {
    for (const operator of [viewer, admin]) {
      const response = await service.callHost(operator, method, path, method === 'GET' ? undefined : {});
      expect(response.status).toBe(401);
      expect(errorCodeOf(response)).toBe('UNAUTHORIZED');
    }
  });
});

describe('operator keys', () => {
  it('stop working once revoked, while another key of the operator keeps working', async () => {
    const operator = await service.createOperator('viewer');
    const second = await service.hq('operator', 'issue', operator.name);
    const secondKey = { key: second.out.at(-1) ?? '' };
    expect((await service.callHost(operator, 'GET', 'hq/v1/whoami')).status).toBe(200);
    const revoked = await service.hq('operator', 'revoke', operator.name, operator.keyId);
    expect(revoked.code, revoked.err.join('\n')).toBe(0);
    expect((await service.callHost(operator, 'GET', 'hq/v1/whoami')).status).toBe(401);
    expect((await service.callHost(secondKey, 'GET', 'hq/v1/whoami')).status).toBe(200);
  });
});
