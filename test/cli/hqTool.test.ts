import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDailyClose, buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { fixtureBusinessDate } from '../fixtures/tradeRecordFixtures.js';
import { startTestService, type TestService } from '../support/startTestService.js';
import { newBatchId, partnerWithStores, reconciled, tradeBatch, usdStore, warningCodes } from '../support/httpScenario.js';
import { mappingOf } from '../support/responseBodies.js';
import { testClock } from '../support/testClock.js';
import { WebhookDeadLetterRepository } from '../../src/storage/WebhookDeadLetterRepository.js';

const clock = testClock();
let service: TestService;
beforeAll(async () => {
  // Reconcile as soon as a daily close arrives.
  service = await startTestService({ settings: { RECONCILE_DELAY_SECONDS: '0' }, services: { clock } });
});
afterAll(async () => {
  await service.stop();
});

const freshId = () => `hq-${randomUUID().slice(0, 8)}`;
/** The store ids of `store list`, below its header. */
const storeIdsOf = (lines: string[]) => lines.slice(1).map((line) => line.split('\t')[0]);
const keyShape = /^[A-Za-z0-9_-]{32,}$/;

describe('usage', () => {
  it('--help prints the commands and exits 0', async () => {
    for (const argv of [['--help'], ['-h'], ['partner', 'create', '--help']]) {
      const result = await service.hq(...argv);
      expect(result.code, argv.join(' ')).toBe(0);
      const text = result.out.join('\n');
      for (const command of [
        'partner create',
        'key issue',
        'key revoke',
        'key list',
        'store register',
        'store retire',
        'store reactivate',
        'payment-type set-direction',
        'reconciliation list',
        'reconciliation rerun',
        'operator issue',
        'operator list',
        'operator revoke',
      ]) {
        expect(text).toContain(command);
      }
    }
  });

  it('no command, an unknown command or wrong arguments exit 2', async () => {
    expect((await service.hq()).code).toBe(2);
    for (const argv of [
      ['frobnicate'],
      ['partner', 'explode', 'x'],
      ['partner', 'create'],
      ['partner', 'create', 'has spaces!'],
      ['key', 'revoke', 'only-one-word'],
      ['store', 'register', 'p-1'],
      ['store', 'retire', 'p-1'],
      ['store', 'reactivate', 'p-1', 'S-1', 'S-2'],
      ['partner', 'set-rate-limit', 'p-1', '0'],
      ['partner', 'set-rate-limit', 'p-1', 'lots'],
      ['payment-type', 'set-direction', 'p-1', 'GIFT', '2'],
      ['reconciliation', 'list', '--status', 'DONE'],
      ['reconciliation', 'list', '--date', '01/03/2026'],
      ['key', 'issue', 'p-1', '--expires'],
    ]) {
      const result = await service.hq(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err.join('\n')).toMatch(/^error: /);
    }
  });

  it('a partner that does not exist exits 1 on every command naming one', async () => {
    const ghost = freshId();
    for (const argv of [
      ['partner', 'deactivate', ghost],
      ['partner', 'activate', ghost],
      ['partner', 'set-rate-limit', ghost, '10'],
      ['key', 'issue', ghost],
      ['key', 'list', ghost],
      ['key', 'revoke', ghost, 'key-00000000'],
      ['store', 'register', ghost, 'S-1'],
      ['store', 'list', ghost],
      ['store', 'retire', ghost, 'S-1'],
      ['store', 'reactivate', ghost, 'S-1'],
      ['payment-type', 'set-direction', ghost, 'GIFT', '1'],
    ]) {
      const result = await service.hq(...argv);
      expect(result.code, argv.join(' ')).toBe(1);
      expect(result.err.join('\n')).toContain(ghost);
    }
  });
});

describe('partners', () => {
  it('create, list, refuse a duplicate, deactivate, activate and set a rate limit', async () => {
    const id = freshId();
    const created = await service.hq('partner', 'create', id, '--name', 'Burger Chain East');
    expect(created.code).toBe(0);
    expect(created.out.join('\n')).toContain(id);
    expect((await service.hq('partner', 'create', id)).code).toBe(1);

    const row = async () => (await service.hq('partner', 'list')).out.find((line) => line.startsWith(`${id}\t`));
    expect(await row()).toBe(`${id}\tACTIVE\tdefault\tBurger Chain East`);
    expect((await service.hq('partner', 'deactivate', id)).code).toBe(0);
    expect(await row()).toMatch(new RegExp(`^${id}\\tINACTIVE\\t`));
    expect((await service.hq('partner', 'activate', id)).code).toBe(0);
    expect((await service.hq('partner', 'set-rate-limit', id, '25')).code).toBe(0);
    expect(await row()).toBe(`${id}\tACTIVE\t25\tBurger Chain East`);
    const backToDefault = await service.hq('partner', 'set-rate-limit', id, 'default');
    expect(backToDefault.out).toEqual([`partner ${id} follows the default rate limit (RATE_LIMIT_PER_MINUTE) again`]);
    expect(await row()).toBe(`${id}\tACTIVE\tdefault\tBurger Chain East`);
    for (const wrong of ['0', '2.5', 'Default']) expect((await service.hq('partner', 'set-rate-limit', id, wrong)).code).toBe(2);
  });
});

describe('keys', () => {
  it('key issue prints the key alone on the last line; it works over HTTP; key list never shows it', async () => {
    const id = freshId();
    await service.hq('partner', 'create', id);
    const issued = await service.hq('key', 'issue', id);
    expect(issued.code).toBe(0);
    const key = issued.out[issued.out.length - 1]!;
    expect(key).toMatch(keyShape);
    expect(issued.out.slice(0, -1).join('\n')).not.toContain(key);
    const keyId = /\b(key-[0-9a-f]+)\b/.exec(issued.out[0]!)?.[1];
    expect(keyId).toBeDefined();
    expect(mappingOf(await service.call({ key }, 'GET', 'mappings/transaction-types')).partner_id).toBe(id);

    const expiring = await service.hq('key', 'issue', id, '--expires', new Date(clock().getTime() + 3_600_000).toISOString());
    expect(expiring.code).toBe(0);
    const listed = await service.hq('key', 'list', id);
    expect(listed.code).toBe(0);
    const text = listed.out.join('\n');
    expect(text).not.toContain(key);
    expect(text).not.toContain(expiring.out[expiring.out.length - 1]!);
    expect(listed.out[0]).toBe('key_id\tstatus\tcreated\texpires');
    expect(listed.out.find((line) => line.startsWith(`${keyId}\t`))).toMatch(/\tACTIVE\t.*\tnever$/);
    expect(listed.out).toHaveLength(3);
  });

  it('key revoke turns a key off; an unknown key id exits 1; --expires must be a future date', async () => {
    const id = freshId();
    await service.hq('partner', 'create', id);
    const issued = await service.hq('key', 'issue', id);
    const key = issued.out[issued.out.length - 1]!;
    const keyId = /\b(key-[0-9a-f]+)\b/.exec(issued.out[0]!)![1]!;
    expect((await service.hq('key', 'revoke', id, 'key-ffffffff')).code).toBe(1);
    expect((await service.hq('key', 'revoke', id, keyId)).code).toBe(0);
    expect((await service.call({ key }, 'GET', 'mappings/transaction-types')).status).toBe(401);
    expect((await service.hq('key', 'list', id)).out.find((line) => line.startsWith(`${keyId}\t`))).toMatch(/\tREVOKED\t/);

    expect((await service.hq('key', 'issue', id, '--expires', '2020-01-01T00:00:00Z')).code).toBe(2);
    expect((await service.hq('key', 'issue', id, '--expires', 'next tuesday')).code).toBe(2);
  });

  it('key list marks a key past its expiry as EXPIRED', async () => {
    const id = freshId();
    await service.hq('partner', 'create', id);
    const expiresAt = clock().getTime() + 3_600_000;
    const issued = await service.hq('key', 'issue', id, `--expires=${new Date(expiresAt).toISOString()}`);
    expect(issued.code).toBe(0);
    clock.advance(3_600_000);
    const listed = await service.hq('key', 'list', id);
    expect(listed.out[1]).toMatch(/\tEXPIRED\t/);
  });
});

describe('dates', () => {
  it('refuses an --expires that is not a strict ISO date or a date-time with its zone, and issues no key', async () => {
    const id = freshId();
    const name = freshId();
    await service.hq('partner', 'create', id);
    for (const argv of [
      ['key', 'issue', id, '--expires', '2027-02-30'],
      ['key', 'issue', id, '--expires', '2027-01-01T09:00'],
      ['operator', 'issue', name, '--expires', '12/01/2027'],
      ['operator', 'issue', name, '--expires', '2027-06-31'],
    ]) {
      const result = await service.hq(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      expect(result.err[0], argv.join(' ')).toMatch(/^error: --expires must be an ISO 8601 date or date-time with its zone: YYYY-MM-DD/);
      expect(result.out).toEqual([]);
    }
    expect((await service.hq('key', 'list', id)).out).toEqual(['key_id\tstatus\tcreated\texpires']);
    expect((await service.hq('operator', 'list')).out.join('\n')).not.toContain(name);

    // A zone other than UTC is taken, and the expiry printed in UTC.
    const zoned = await service.hq('key', 'issue', id, '--expires', '2099-12-31T23:30:00-05:00');
    expect(zoned.code, zoned.err.join('\n')).toBe(0);
    expect(zoned.out[0]).toContain('expires 2100-01-01T04:30:00.000Z');
  });

  it('refuses a --date, --from or --to naming no day, before reading anything (exit 2)', async () => {
    const ghost = freshId();
    for (const [argv, option] of [
      [['reconciliation', 'list', '--date', '2026-02-30'], 'date'],
      [['reconciliation', 'list', '--partner', ghost, '--date', '2026-02-29'], 'date'],
      [['reconciliation', 'rerun', ghost, '--from', '2026-02-30'], 'from'],
      [['reconciliation', 'rerun', ghost, '--from', '2026-02-01', '--to', '2026-04-31'], 'to'],
      [['reports', 'rebuild', '--from', '2026-13-01'], 'from'],
      [['reports', 'rebuild', '--partner', ghost, '--to', '2026-00-01'], 'to'],
    ] as const) {
      const result = await service.hq(...argv);
      expect(result.code, argv.join(' ')).toBe(2);
      // The date is named, not the partner: nothing was read.
      expect(result.err.join('\n'), argv.join(' ')).toBe(
        `error: --${option} must be a calendar date, YYYY-MM-DD (a day that exists)\nRun with --help for the commands.`,
      );
      expect(result.out).toEqual([]);
    }
    // A leap day is a day.
    const leap = await service.hq('reconciliation', 'list', '--date', '2028-02-29');
    expect(leap.code, leap.err.join('\n')).toBe(0);
    expect(leap.out).toEqual(['partner\tstore\tbusiness_date\tstatus\tchecked_at\tdifferences']);
  });
});

describe('stores', () => {
  it('store register is idempotent and store list shows each store once', async () => {
    const id = freshId();
    await service.hq('partner', 'create', id);
    const first = await service.hq('store', 'register', id, 'S-A', 'S-B');
    expect(first.code).toBe(0);
    expect(first.out.join('\n')).toMatch(/^2 store\(s\) registered/);
    const again = await service.hq('store', 'register', id, 'S-B', 'S-C');
    expect(again.code).toBe(0);
    expect(again.out.join('\n')).toMatch(/^1 store\(s\) registered.*1 already were/);
    const list = await service.hq('store', 'list', id);
    expect(list.code).toBe(0);
    expect(list.out[0]).toBe('store_id\tstatus\tregistered\tretired');
    expect(storeIdsOf(list.out)).toEqual(['S-A', 'S-B', 'S-C']);
    expect(list.out[1]).toMatch(/^S-A\tACTIVE\t\d{4}-\d{2}-\d{2}T[^\t]+Z\t-$/);
    expect((await service.hq('store', 'register', id, 'x'.repeat(129))).code).toBe(2);
  });

  it('store register takes the ids the HQ API takes: identifiers partners can send, never "." or ".."', async () => {
    const id = freshId();
    await service.hq('partner', 'create', id);
    const emoji = '😀'.repeat(128);
    expect((await service.hq('store', 'register', id, emoji, 'S-1')).code).toBe(0);
    expect(storeIdsOf((await service.hq('store', 'list', id)).out).sort()).toEqual(['S-1', emoji].sort());
    for (const refused of [['S-2', '.'], ['..'], ['S-2', 'S\u0007X'], ['S-2 '], ['S-2', '\u00A0S-3'], ['S-2', 'A%2FB']]) {
      const result = await service.hq('store', 'register', id, ...refused);
      expect(result.code, refused.join(' ')).toBe(2);
      expect(result.err[0]).toMatch(new RegExp(`^error: store id ${String(refused.length)} must be an identifier as partners send it`));
    }
    // Too many ids is a problem with the list, not with its first id.
    const tooMany = await service.hq('store', 'register', id, ...Array.from({ length: 101 }, (_, i) => `Y${String(i)}`));
    expect(tooMany.code).toBe(2);
    expect(tooMany.err[0]).toMatch(/^error: the store ids must hold 1 to 100 store ids\b/);
    expect(storeIdsOf((await service.hq('store', 'list', id)).out)).toHaveLength(2);
  });

  it("store retire and store reactivate act as the HQ API does: idempotent, listed, only on the partner's own stores", async () => {
    const id = freshId();
    await service.hq('partner', 'create', id);
    const issued = await service.hq('key', 'issue', id);
    const partner = { key: issued.out.at(-1)! };
    expect((await service.hq('store', 'register', id, 'S-A', 'S/B')).code).toBe(0);
    const upload = () => service.call(partner, 'PUT', 'stores', { batch_id: newBatchId(), stores: [buildUsdStore('S/B')] });
    expect((await upload()).status).toBe(202);

    // The partner id in any case; the store id exactly.
    const retired = await service.hq('store', 'retire', id.toUpperCase(), 'S/B');
    expect(retired.code, retired.err.join('\n')).toBe(0);
    expect(retired.out[0]).toMatch(new RegExp(`^store S/B of partner ${id} is RETIRED since (\\S+Z);`));
    const since = /since (\S+Z);/.exec(retired.out[0]!)![1]!;
    expect(retired.out[1]).toContain('PARTNER_CACHE_SECONDS');
    expect((await upload()).status).toBe(403);
    clock.advance(60_000);
    const again = await service.hq('store', 'retire', id, 'S/B');
    expect([again.code, again.out[0]]).toEqual([0, retired.out[0]]);
    const listed = (await service.hq('store', 'list', id)).out;
    expect(listed.find((line) => line.startsWith('S/B\t'))).toMatch(new RegExp(`^S/B\tRETIRED\t\\S+\t${since}$`));
    expect(listed.find((line) => line.startsWith('S-A\t'))).toMatch(/^S-A\tACTIVE\t\S+\t-$/);

    for (const [action, storeId] of [
      ['retire', 's/b'],
      ['retire', 'S-Z'],
      ['reactivate', 'S-Z'],
    ] as const) {
      const refused = await service.hq('store', action, id, storeId);
      expect(refused.code, `${action} ${storeId}`).toBe(1);
      expect(refused.err.join('\n')).toContain(`partner ${id} has no store ${storeId}`);
    }
    // Another partner's store of the same id is neither found nor touched.
    const other = freshId();
    await service.hq('partner', 'create', other);
    expect((await service.hq('store', 'reactivate', other, 'S/B')).code).toBe(1);
    expect((await service.hq('store', 'list', other)).out).toEqual(['store_id\tstatus\tregistered\tretired']);

    for (let i = 0; i < 2; i++) {
      const reactivated = await service.hq('store', 'reactivate', id, 'S/B');
      expect([reactivated.code, reactivated.out[0]]).toEqual([
        0,
        `store S/B of partner ${id} is ACTIVE: the partner may send for it again at once`,
      ]);
    }
    expect((await service.hq('store', 'list', id)).out.find((line) => line.startsWith('S/B\t'))).toMatch(/^S\/B\tACTIVE\t\S+\t-$/);
    expect((await upload()).status).toBe(202);
  });

  it('a registered store can be used over HTTP; an unregistered one cannot', async () => {
    const id = freshId();
    await service.hq('partner', 'create', id);
    const issued = await service.hq('key', 'issue', id);
    const partner = { key: issued.out[issued.out.length - 1]! };
    const path = `daily-close/${usdStore}/${fixtureBusinessDate}`;
    expect((await service.call(partner, 'GET', path)).status).toBe(403);
    await service.hq('store', 'register', id, usdStore);
    expect((await service.call(partner, 'GET', path)).status).toBe(200);
  });
});

describe('payment directions and reconciliation results', () => {
  it('payment-type set-direction makes a custom payment_type known', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    const custom = () => {
      const batch = tradeBatch({ recordCount: 1 });
      batch.trade_records[0]!.payments[0]!.payment_type = 'MEAL_VOUCHER';
      return batch;
    };
    expect(warningCodes(await service.call(partner, 'POST', 'trade-records', custom()))).toContain('UNKNOWN_PAYMENT_TYPE');
    const set = await service.hq('payment-type', 'set-direction', partner.partnerId, 'MEAL_VOUCHER', '1');
    expect(set.code).toBe(0);
    // A refund-like type: -1 is the direction, not an option; 50 emoji are 50 characters.
    const refund = await service.hq('payment-type', 'set-direction', partner.partnerId, '🎁'.repeat(50), '-1');
    expect(refund.code, refund.err.join('\n')).toBe(0);
    expect(refund.out[0]).toMatch(/counts with direction -1$/);
    const tooLong = await service.hq('payment-type', 'set-direction', partner.partnerId, '🎁'.repeat(51), '-1');
    expect(tooLong.err[0]).toMatch(/^error: payment_type must be 1 to 50 characters/);
    const builtIn = await service.hq('payment-type', 'set-direction', partner.partnerId, 'SALE', '-1');
    expect(builtIn.code).not.toBe(0);
    expect(builtIn.err[0]).toContain(
      'and not a built-in payment type (SALE, REFUND, DEPOSIT, DEPOSIT_APPLIED, ADJUSTMENT), whose direction is fixed',
    );
    const batch = custom();
    batch.trade_records[0]!.version = 2;
    expect(warningCodes(await service.call(partner, 'POST', 'trade-records', batch))).not.toContain('UNKNOWN_PAYMENT_TYPE');
  });

  it('reconciliation list shows results, filtered by partner, status and date', async () => {
    const partner = await partnerWithStores(service, { mapping: true });
    expect((await service.call(partner, 'POST', 'trade-records', tradeBatch())).status).toBe(202);
    // Two amounts 3.00 off the records' totals.
    const close = { ...buildDailyClose('USD'), batch_id: newBatchId(), net_sales_amount: '35.91', payment_total_amount: '45.36' };
    expect((await service.call(partner, 'POST', 'daily-close', close)).status).toBe(202);
    expect((await reconciled(service, partner, usdStore, fixtureBusinessDate)).status).toBe('MISMATCHED');

    const listed = await service.hq('reconciliation', 'list', '--partner', partner.partnerId);
    expect(listed.code).toBe(0);
    expect(listed.out[0]).toBe('partner\tstore\tbusiness_date\tstatus\tchecked_at\tdifferences');
    expect(listed.out.slice(1)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^${partner.partnerId}\\t${usdStore}\\t${fixtureBusinessDate}\\tMISMATCHED\\t\\S+\\tnet_sales_amount,payment_total_amount$`,
        ),
      ),
    ]);
    const filtered = await service.hq('reconciliation', 'list', '--partner', partner.partnerId, '--status', 'MATCHED');
    expect(filtered.out).toHaveLength(1);
    const byDate = await service.hq(
      'reconciliation',
      'list',
      '--partner',
      partner.partnerId,
      '--status',
      'MISMATCHED',
      '--date',
      fixtureBusinessDate,
    );
    expect(byDate.out).toHaveLength(2);
  });
});

describe('operator keys', () => {
  it('issue prints the key once on the last line and stores only its hash, with name and role', async () => {
    const name = freshId();
    const issued = await service.hq('operator', 'issue', name, '--role', 'admin', '--expires', '2099-01-01');
    expect(issued.code, issued.err.join('\n')).toBe(0);
    const key = issued.out.at(-1) ?? '';
    expect(key).toMatch(keyShape);
    expect(issued.out.slice(0, -1).join('\n')).not.toContain(key);
    const keyId = /operator key (op-[0-9a-f]+) issued/.exec(issued.out[0] ?? '')?.[1] ?? '';
    expect(issued.out.join('\n')).toContain(`hq-${name}-${keyId}`);

    const rows = [];
    for await (const entity of service.services.storage.tables.operatorKeys.listEntities()) rows.push(entity);
    const row = rows.find((e) => e.keyId === keyId);
    expect(row).toMatchObject({
      partitionKey: createHash('sha256').update(key).digest('hex'),
      operator: name,
      role: 'admin',
      status: 'ACTIVE',
    });
    expect(JSON.stringify(rows)).not.toContain(key);

    const listed = await service.hq('operator', 'list');
    expect(listed.out[0]).toBe('operator\tkey_id\trole\tstatus\tcreated\texpires');
    expect(listed.out).toContainEqual(
      expect.stringMatching(new RegExp(`^${name}\\t${keyId}\\tadmin\\tACTIVE\\t\\S+\\t2099-01-01T00:00:00.000Z$`)),
    );
    expect(listed.out.join('\n')).not.toContain(key);

    const whoami = await service.callHost({ key }, 'GET', 'hq/v1/whoami');
    expect(whoami.body).toMatchObject({ operator: name, role: 'admin', expires_at: '2099-01-01T00:00:00.000Z' });
  });

  it('issues viewer keys by default, revokes, and refuses what it cannot do', async () => {
    const name = freshId();
    const issued = await service.hq('operator', 'issue', name);
    expect(issued.out[0]).toContain('role viewer');
    const keyId = /operator key (op-[0-9a-f]+) issued/.exec(issued.out[0] ?? '')?.[1] ?? '';
    expect((await service.hq('operator', 'revoke', name, keyId)).code).toBe(0);
    expect((await service.hq('operator', 'list')).out).toContainEqual(expect.stringContaining(`${name}\t${keyId}\tviewer\tREVOKED`));
    expect((await service.hq('operator', 'revoke', name, 'op-00000000')).code).toBe(1);
    for (const argv of [
      ['operator', 'issue', name, '--role', 'root'],
      ['operator', 'issue', 'has spaces'],
      ['operator', 'issue', name, '--expires', '2001-01-01'],
      ['operator', 'revoke', name],
      ['operator', 'list', 'extra'],
    ]) {
      expect((await service.hq(...argv)).code, argv.join(' ')).toBe(2);
    }
  });
});

describe('webhook failures', () => {
  it('lists dead-lettered deliveries newest first, one partner or all, with the origin only and no body or secret', async () => {
    const deadLetters = new WebhookDeadLetterRepository(service.services.storage.tables.webhookDeadLetters);
    const partnerId = freshId();
    const other = freshId();
    for (const id of [partnerId, other]) expect((await service.hq('partner', 'create', id, '--name', id)).code).toBe(0);
    const base = {
      eventType: 'reconciliation.completed',
      attempts: 20,
      lastErrorClass: 'HTTP_ERROR',
      lastStatus: 500,
      createdAt: '2026-03-01T00:00:00.000Z',
      firstAttemptAt: '2026-03-01T00:00:01.000Z',
      lastAttemptAt: '2026-03-02T00:00:00.000Z',
    };
    await deadLetters.add({
      ...base,
      partnerId,
      eventId: 'evt_older',
      targetOrigin: 'https://hooks.example.com',
      deadLetteredAt: '2026-03-02T00:00:01.000Z',
    });
    // A record written with more than an origin still shows the origin alone.
    await deadLetters.add({
      ...base,
      partnerId,
      eventId: 'evt_newer',
      eventType: 'batch.failed',
      lastErrorClass: 'TIMEOUT',
      targetOrigin: 'https://user:pw@hooks.example.com:8443/path?token=t',
      deadLetteredAt: '2026-03-03T00:00:01.000Z',
    });
    const { lastStatus: _status, ...withoutStatus } = base;
    await deadLetters.add({
      ...withoutStatus,
      partnerId: other,
      eventId: 'evt_other',
      targetOrigin: 'https://other.example',
      deadLetteredAt: '2026-03-04T00:00:00.000Z',
    });

    const mine = await service.hq('webhook', 'failures', '--partner', partnerId);
    expect(mine.code).toBe(0);
    expect(mine.out[0]).toBe(
      'dead_lettered_at\tpartner\tevent_id\tevent_type\tattempts\tlast_error\tfirst_attempt_at\tlast_attempt_at\ttarget',
    );
    expect(mine.out.slice(1)).toEqual([
      `2026-03-03T00:00:01.000Z\t${partnerId}\tevt_newer\tbatch.failed\t20\tTIMEOUT 500\t2026-03-01T00:00:01.000Z\t2026-03-02T00:00:00.000Z\thttps://hooks.example.com:8443`,
      `2026-03-02T00:00:01.000Z\t${partnerId}\tevt_older\treconciliation.completed\t20\tHTTP_ERROR 500\t2026-03-01T00:00:01.000Z\t2026-03-02T00:00:00.000Z\thttps://hooks.example.com`,
    ]);
    expect(mine.out.join('\n')).not.toMatch(/pw@|token=|\/path/);
    // The partner as stored, however it is typed; an unknown one is refused, not listed as empty.
    expect((await service.hq('webhook', 'failures', '--partner', partnerId.toUpperCase())).out).toEqual(mine.out);
    const unknown = await service.hq('webhook', 'failures', '--partner', freshId());
    expect(unknown.code).not.toBe(0);
    expect(unknown.err.join('\n')).toMatch(/does not exist/);
    expect(unknown.out).toEqual([]);

    // Dismissed, a given-up delivery is no longer listed.
    expect((await service.hq('webhook', 'dismiss', partnerId, 'evt_older')).code).toBe(0);
    expect((await service.hq('webhook', 'failures', '--partner', partnerId)).out.slice(1)).toEqual(mine.out.slice(1, 2));

    const all = await service.hq('webhook', 'failures', '--limit', '500');
    expect(all.out.some((line) => line.includes(`${other}\tevt_other`) && line.includes('\tHTTP_ERROR\t'))).toBe(true);
    const one = await service.hq('webhook', 'failures', '--limit', '1');
    expect(one.out).toHaveLength(2);
    expect(one.err.join('\n')).toMatch(/Older failures are left out/);
    expect(mine.err).toEqual([]);

    for (const argv of [
      ['webhook', 'failures', '--limit', '0'],
      ['webhook', 'failures', '--limit', 'many'],
      ['webhook', 'failures', 'extra'],
    ]) {
      expect((await service.hq(...argv)).code, argv.join(' ')).toBe(2);
    }
  });
});
