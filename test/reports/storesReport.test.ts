import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InvocationContext } from '@azure/functions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { functionTable, storesReportSchedule } from '../../src/functions/functionTable.js';
import { registerFunctions } from '../../src/functions/registerFunctions.js';
import { captureRegistrations, type CapturedTimerFunction } from '../../src/localhost/functionsCoreStandIn.js';
import { buildJpyStore, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { DuckDb, dataset } from '../support/duckDb.js';
import { jpyStore, partnerWithStores, usdStore } from '../support/httpScenario.js';
import { startTestService, type TestPartner, type TestService } from '../support/startTestService.js';

let service: TestService;
let partner: TestPartner;
const folders: string[] = [];

beforeAll(async () => {
  service = await startTestService();
  partner = await partnerWithStores(service);
}, 60_000);

afterAll(async () => {
  await service.stop();
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

/** The timer function as the host registers it, run as the timer trigger runs it; its log lines. */
async function runTimer(): Promise<string[]> {
  const captured = captureRegistrations(() => {
    registerFunctions(functionTable, service.services);
  }).find((fn): fn is CapturedTimerFunction => fn.kind === 'timer' && fn.name === 'writeStoresReport')!;
  expect(captured.schedule).toBe(storesReportSchedule);
  const lines: string[] = [];
  const context = new InvocationContext({ functionName: captured.name, logHandler: (_level, ...args) => lines.push(args.join(' ')) });
  await captured.handler(
    { isPastDue: false, schedule: { adjustForDST: true }, scheduleStatus: { last: '', next: '', lastUpdated: '' } },
    context,
  );
  return lines;
}

/** The partner's stores file as DuckDB reads it from a downloaded copy, by store_id. */
async function storesRows(): Promise<Record<string, unknown>[]> {
  const root = mkdtempSync(path.join(tmpdir(), 'hq-stores-'));
  folders.push(root);
  expect((await service.hq('reports', 'download', root, '--partner', partner.partnerId)).code).toBe(0);
  const db = await DuckDb.open();
  try {
    return await db.rows(
      `SELECT store_id, registration_status, retired_at IS NOT NULL AS retired, store_name, currency, time_zone, workday_start,
              prices_include_tax, status, typeof(last_modified_at) AS modified_type, partner_id
       FROM ${dataset(root, 'stores')} ORDER BY store_id`,
    );
  } finally {
    db.close();
  }
}

describe('the stores dataset (timer)', () => {
  it("writes each registered store with the partner's master data, and rewrites it only when either changes", async () => {
    const extra = `S-${randomUUID().slice(0, 8)}`;
    expect((await service.hq('store', 'register', partner.partnerId, extra)).code).toBe(0);

    expect(await runTimer()).toContain('writeStoresReport: 1 partners, 1 stores files written, 0 unchanged, 0 removed, 0 failed');
    const [usd, jpy] = [buildUsdStore(usdStore), buildJpyStore(jpyStore)];
    expect(await storesRows()).toEqual(
      [
        {
          store_id: jpyStore,
          registration_status: 'ACTIVE',
          retired: false,
          store_name: jpy.store_name,
          currency: 'JPY',
          time_zone: jpy.time_zone,
          workday_start: jpy.workday_start,
          prices_include_tax: jpy.prices_include_tax,
          status: jpy.status,
          modified_type: 'TIMESTAMP WITH TIME ZONE',
          partner_id: partner.partnerId,
        },
        {
          store_id: usdStore,
          registration_status: 'ACTIVE',
          retired: false,
          store_name: usd.store_name,
          currency: 'USD',
          time_zone: usd.time_zone,
          workday_start: usd.workday_start,
          prices_include_tax: usd.prices_include_tax,
          status: usd.status,
          modified_type: 'TIMESTAMP WITH TIME ZONE',
          partner_id: partner.partnerId,
        },
        // Registered, no master data sent yet.
        {
          store_id: extra,
          registration_status: 'ACTIVE',
          retired: false,
          store_name: null,
          currency: null,
          time_zone: null,
          workday_start: null,
          prices_include_tax: null,
          status: null,
          modified_type: 'TIMESTAMP WITH TIME ZONE',
          partner_id: partner.partnerId,
        },
      ].sort((a, b) => (a.store_id < b.store_id ? -1 : 1)),
    );

    expect(await runTimer()).toContain('writeStoresReport: 1 partners, 0 stores files written, 1 unchanged, 0 removed, 0 failed');

    // A retirement and new master data each make the next run rewrite the file.
    expect((await service.hq('store', 'retire', partner.partnerId, extra)).code).toBe(0);
    const renamed = { ...usd, store_name: 'Renamed', time_zone: 'America/Chicago', last_modified_at: '2030-01-01T00:00:00Z' };
    expect((await service.call(partner, 'PUT', 'stores', { batch_id: randomUUID(), stores: [renamed] })).status).toBe(202);
    expect(await runTimer()).toContain('writeStoresReport: 1 partners, 1 stores files written, 0 unchanged, 0 removed, 0 failed');
    const rows = await storesRows();
    expect(rows.find((row) => row.store_id === extra)).toMatchObject({ registration_status: 'RETIRED', retired: true });
    expect(rows.find((row) => row.store_id === usdStore)).toMatchObject({ store_name: 'Renamed', time_zone: 'America/Chicago' });
  });
});
