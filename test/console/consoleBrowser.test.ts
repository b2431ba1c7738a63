/**
 * The HQ console in a real browser (Debian's Chromium driven by playwright-core) against the real
 * service on the storage emulator, with store-days sent through the partner API. Screenshots go to
 * test-results/console/ (CONSOLE_SCREENSHOT_DIR=docs refreshes the README's pictures).
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatAmount } from '../../console/src/format/formatAmount.js';
import { findProjectRoot } from '../../src/config/findProjectRoot.js';
import { buildUsdStore } from '../fixtures/masterDataFixtures.js';
import { WebhookDeadLetterRepository } from '../../src/storage/WebhookDeadLetterRepository.js';
import { ReconciliationRepository } from '../../src/storage/ReconciliationRepository.js';
import { pendingRunLostAfterMs } from '../../src/services/pendingRuns.js';
import { startTestService, type TestOperator, type TestService } from '../support/startTestService.js';
import { chromiumMissing, launchChromium } from './support/chromium.js';
import { buildConsole, consoleUrl } from './support/consoleBuild.js';
import { seedConsoleData, type SeededDays } from './support/seedConsoleData.js';

const missing = chromiumMissing();
// CI installs Chromium (.ci/run), so there a missing browser fails the run instead of skipping it.
const skip = missing !== undefined && process.env.CI === undefined;
if (skip) console.warn(`HQ console browser tests skipped: ${missing}`);

const screenshotDir = path.resolve(findProjectRoot(), process.env.CONSOLE_SCREENSHOT_DIR ?? 'test-results/console');

interface GridBody {
  counts: Record<string, number>;
  items: { partner_id: string; store_id: string; days: { business_date: string; status: string; overdue: boolean }[] }[];
}
interface DayBody {
  comparison: { field: string; expected: string; actual: string; difference: string; differs: boolean }[];
  diagnosis: {
    missing_batch_seqs: number[];
    unmapped_transaction_types: { source_code: string; transaction_count: number }[];
    unknown_payment_types: { payment_type: string; payment_count: number }[];
    hints: string[];
  };
  batches: { batch_seq: number }[];
  next_run_due_at: string | null;
}

let service: TestService;
let build: ReturnType<typeof buildConsole>;
let seeded: SeededDays;
let admin: TestOperator;
let viewer: TestOperator;
let browser: Browser;
const contexts: { context: BrowserContext; problems: string[] }[] = [];

describe.skipIf(skip)('the HQ console in Chromium', () => {
  beforeAll(async () => {
    build = buildConsole();
    service = await startTestService({ services: { consoleAssetsDir: build.dir } });
    [seeded, admin, viewer, browser] = await Promise.all([
      seedConsoleData(service),
      service.createOperator('admin'),
      service.createOperator('viewer'),
      launchChromium(),
    ]);
    mkdirSync(screenshotDir, { recursive: true });
  }, 180_000);

  afterAll(async () => {
    await browser.close();
    await service.stop();
    build.remove();
    // Every page of every test: no script error, no CSP violation, nothing fetched from elsewhere.
    expect(contexts.flatMap((c) => c.problems)).toEqual([]);
  });

  /** A fresh browser profile (empty storage) that records console errors and foreign requests. */
  async function openPage(options: BrowserContextOptions = {}): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC', viewport: { width: 1280, height: 860 }, ...options });
    const problems: string[] = [];
    contexts.push({ context, problems });
    const page = await context.newPage();
    const origin = new URL(consoleUrl(service)).origin;
    page.on('console', (message) => {
      // An API answer other than 2xx (a refused key, a route this version lacks) is logged by the
      // browser as a failed resource; the page handles those. CSP refusals and script errors count.
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) problems.push(`foreign request: ${url}`);
    });
    return page;
  }

  async function signIn(page: Page, operator: TestOperator, hash = ''): Promise<void> {
    await page.goto(consoleUrl(service) + hash);
    await page.getByLabel('Operator key').fill(operator.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByTestId('who').textContent()).toContain(operator.name);
  }

  const gridHash = () => `#/grid?from=${seeded.from}&to=${seeded.to}`;

  it('signs in with an operator key kept in this tab only, and signs out', async () => {
    const page = await openPage();
    await page.goto(consoleUrl(service));
    await page.getByLabel('Operator key').fill('not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not valid');

    await signIn(page, admin);
    expect(await page.getByTestId('who').textContent()).toContain('admin');
    const stored = await page.evaluate(() => ({
      session: Object.keys(sessionStorage).map((k) => sessionStorage.getItem(k)),
      local: localStorage.length,
      cookies: document.cookie,
    }));
    expect(stored).toEqual({ session: [admin.key], local: 0, cookies: '' });
    expect(page.url()).not.toContain(admin.key);

    await page.reload();
    await expect.poll(() => page.getByTestId('who').textContent()).toContain(admin.name);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => page.getByLabel('Operator key').isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.reload();
    await expect.poll(() => page.getByLabel('Operator key').isVisible()).toBe(true);
  });

  it('goes back to sign-in when the key is revoked while the page is open', async () => {
    const page = await openPage();
    const operator = await service.createOperator('viewer');
    await signIn(page, operator, gridHash());
    await page.getByTestId('grid').waitFor();
    expect((await service.hq('operator', 'revoke', operator.name, operator.keyId)).code).toBe(0);
    await page.getByRole('link', { name: 'Operations' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('refused');
    expect(await page.getByLabel('Operator key').isVisible()).toBe(true);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
  });

  it('colours every store-day of the grid with the status the API gives, counts them and lists the overdue close', async () => {
    const page = await openPage();
    await signIn(page, admin, gridHash());
    const grid = page.getByTestId('grid');
    await grid.waitFor();
    const api = await service.callHost(admin, 'GET', `hq/v1/store-days?from=${seeded.from}&to=${seeded.to}&limit=200`);
    expect(api.status).toBe(200);
    const body = api.body as GridBody;
    const cells = body.items.flatMap((row) => row.days.map((day) => ({ row, day })));
    expect(cells.length).toBe(12);
    for (const { row, day } of cells) {
      const cell = grid.locator(`tr[data-partner="${row.partner_id}"][data-store="${row.store_id}"] td[data-date="${day.business_date}"]`);
      expect(await cell.getAttribute('data-status'), `${row.store_id} ${day.business_date}`).toBe(day.status);
      expect(await cell.evaluate((td) => td.classList.contains('overdue'))).toBe(day.overdue);
    }
    expect(new Set(cells.map((c) => c.day.status))).toEqual(new Set(['MATCHED', 'MISMATCHED', 'NOT_RECEIVED']));
    for (const name of ['NOT_RECEIVED', 'RECEIVED', 'MATCHED', 'MISMATCHED', 'overdue']) {
      expect(await page.getByTestId(`count-${name}`).locator('strong').textContent(), name).toBe(String(body.counts[name]));
    }
    expect(body.counts.overdue).toBe(1);
    const overdueLink = page.locator('.overdue-list a');
    expect(await overdueLink.count()).toBe(1);
    expect(await overdueLink.textContent()).toContain(seeded.overdue.storeId);
    await page.screenshot({ path: path.join(screenshotDir, 'console-grid.png'), fullPage: true });
  });

  it('moves through the grid with the arrow keys and opens a day with Enter', async () => {
    const page = await openPage();
    await signIn(page, admin, gridHash());
    const first = page.locator('a[data-r="0"][data-c="0"]');
    await first.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    const focused = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      return { r: a?.dataset.r, c: a?.dataset.c, href: a?.getAttribute('href') };
    });
    expect(focused).toMatchObject({ r: '1', c: '1' });
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => window.location.hash)).toBe(focused.href);
    await page.getByTestId('day-status').waitFor();
  });

  it('shows a mismatched day: expected, actual and difference per control total, the diagnosis and the batches', async () => {
    const page = await openPage();
    const { partnerId, storeId, businessDate } = seeded.mismatched;
    await signIn(page, admin, gridHash());
    await page.locator(`tr[data-store="${storeId}"] td[data-date="${businessDate}"] a`).click();
    await page.getByTestId('comparison').locator('tbody tr').first().waitFor();
    expect(await page.getByTestId('day-status').textContent()).toContain('Mismatched');

    const api = await service.callHost(admin, 'GET', `hq/v1/store-days/${partnerId}/${storeId}/${businessDate}`);
    const day = api.body as DayBody;
    const rows = await page
      .getByTestId('comparison')
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent.replace(/\u00a0/g, ' '))));
    expect(rows.length).toBe(day.comparison.length);
    const shown = (field: string, value: string) =>
      field.endsWith('_count')
        ? new Intl.NumberFormat('en-US').format(Number(value))
        : formatAmount(value, 'USD', 'en-US').replace(/\u00a0/g, ' ');
    day.comparison.forEach((row, i) => {
      expect(rows[i]!.slice(1), row.field).toEqual([
        shown(row.field, row.expected),
        shown(row.field, row.actual),
        shown(row.field, row.difference),
        row.differs ? '✗ differs' : '✓ matches',
      ]);
    });
    const net = day.comparison.find((row) => row.field === 'net_sales_amount')!;
    expect(net).toMatchObject({ difference: '-5.00', differs: true });
    expect(rows.find((r) => r[0] === 'Net sales')?.[3]).toBe('-USD 5.00');
    expect(day.diagnosis.missing_batch_seqs).toEqual([2]);
    const diagnosis = await page.getByTestId('diagnosis').textContent();
    expect(diagnosis).toContain('Missing batch_seq: 2');
    expect(day.diagnosis.unmapped_transaction_types).toEqual([{ source_code: 'Z99', transaction_count: 1 }]);
    expect(diagnosis).toContain('Unmapped transaction types: Z99 (1 transaction)');
    expect(day.diagnosis.unknown_payment_types).toEqual([{ payment_type: 'MEAL_VOUCHER', payment_count: 1 }]);
    expect(diagnosis).toContain('Unknown payment types: MEAL_VOUCHER (1 payment)');
    // The API's hints speak to the partner; the page says so and shows each under that heading.
    expect(day.diagnosis.hints.length).toBeGreaterThan(0);
    const hints = page.getByTestId('hints');
    expect(await hints.locator('li').allTextContents()).toEqual(day.diagnosis.hints);
    expect(await page.locator('h3', { hasText: 'What the partner is told' }).count()).toBe(1);
    expect(await page.getByTestId('batches').locator('tbody tr').count()).toBe(day.batches.length);
    expect(day.next_run_due_at).toBeNull();
    expect(await page.getByTestId('next-run').count()).toBe(0);
    await page.screenshot({ path: path.join(screenshotDir, 'console-day.png'), fullPage: true });

    // A late batch's run noted (its message not sent here): the page says when it is due.
    const dueAt = new Date(Date.now() + 600_000);
    const run = { runId: `late-${businessDate}`, dueAt: dueAt.toISOString() };
    const results = new ReconciliationRepository(service.services.storage.tables.reconciliations);
    await results.notePendingRun(partnerId, storeId, businessDate, run, { now: new Date(), lostAfterMs: pendingRunLostAfterMs });
    await page.reload();
    await page.getByTestId('next-run').waitFor();
    // The page's locale and zone (openPage): en-US, UTC.
    const shownDue = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(dueAt);
    expect(await page.getByTestId('next-run').textContent()).toBe(`due ${shownDue} (the figures are the last run's until then)`);
    expect(await page.getByTestId('day-status').textContent()).toContain('Mismatched');
  });

  it('gives a viewer no admin action, and the API refuses the viewer one', async () => {
    const page = await openPage();
    const [acme] = seeded.partners;
    await signIn(page, viewer, `#/partners/${acme!.partnerId}`);
    await page.getByTestId('keys').locator('tbody tr').first().waitFor();
    await page.getByTestId('stores').locator('tbody tr').first().waitFor();
    expect(await page.getByTestId('who').textContent()).toContain('viewer');
    for (const name of [
      /^Revoke key/,
      /^Retire store/,
      /^Reactivate store/,
      'Deactivate partner',
      'Activate partner',
      'Register stores',
      'Set direction',
    ]) {
      expect(await page.getByRole('button', { name }).count(), String(name)).toBe(0);
    }
    const refused = await service.callHost(viewer, 'POST', `hq/v1/partners/${acme!.partnerId}/deactivate`, {});
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'ADMIN_ROLE_REQUIRED' } });
    const partner = await service.callHost(viewer, 'GET', `hq/v1/partners/${acme!.partnerId}`);
    expect(partner.body).toMatchObject({ status: 'ACTIVE' });
  });

  it('lets an admin register a store and revoke a key, each only after confirming', async () => {
    const page = await openPage();
    const beta = seeded.partners[1]!;
    const storeId = `NEW-${beta.storeIds[0]!}`;
    await signIn(page, admin, `#/partners/${beta.partnerId}`);
    await page.getByTestId('keys').locator('tbody tr').first().waitFor();

    await page.getByLabel('Store ids to register').fill(storeId);
    await page.getByRole('button', { name: 'Register stores' }).click();
    const dialog = page.locator('dialog[open]');
    expect(await dialog.textContent()).toContain(storeId);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    const storesNow = async () =>
      (
        (await service.callHost(admin, 'GET', `hq/v1/partners/${beta.partnerId}/stores`)).body as { items: { store_id: string }[] }
      ).items.map((s) => s.store_id);
    expect(await storesNow()).not.toContain(storeId);
    await page.getByRole('button', { name: 'Register stores' }).click();
    await dialog.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => page.getByTestId('stores').textContent()).toContain(storeId);
    expect(await storesNow()).toContain(storeId);

    const revokeButton = page.getByRole('button', { name: `Revoke key ${beta.keyId}` });
    await revokeButton.click();
    await page.keyboard.press('Escape');
    expect(await page.locator('dialog[open]').count()).toBe(0);
    expect((await service.call(beta, 'GET', 'reference/transaction-types')).status).toBe(200);
    await revokeButton.click();
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => page.getByTestId('keys').locator('tbody tr', { hasText: beta.keyId }).textContent()).toContain('REVOKED');
    expect((await service.call(beta, 'GET', 'reference/transaction-types')).status).toBe(401);
  });

  it('lets an admin retire a store and reactivate it, each only after confirming, and shows its registration', async () => {
    const page = await openPage();
    const partner = await service.createPartner({ stores: ['RET-A', 'RET-B'] });
    const upload = async () =>
      (await service.call(partner, 'PUT', 'stores', { batch_id: randomUUID(), stores: [buildUsdStore('RET-A')] })).status;
    const registrationNow = async () =>
      (
        (await service.callHost(admin, 'GET', `hq/v1/partners/${partner.partnerId}/stores`)).body as {
          items: { store_id: string; registration_status: string }[];
        }
      ).items.find((s) => s.store_id === 'RET-A')?.registration_status;
    await signIn(page, admin, `#/partners/${partner.partnerId}`);
    const row = page.getByTestId('stores').locator('tbody tr', { hasText: 'RET-A' });
    await row.waitFor();
    expect(await row.textContent()).toContain('ACTIVE');

    const retire = page.getByRole('button', { name: 'Retire store RET-A' });
    await retire.click();
    const dialog = page.locator('dialog[open]');
    expect(await dialog.textContent()).toContain('Retire store RET-A of partner');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await registrationNow()).toBe('ACTIVE');
    expect(await upload()).toBe(202);
    await retire.click();
    await dialog.getByRole('button', { name: 'Retire store', exact: true }).click();
    await expect.poll(() => row.textContent()).toContain('RETIRED');
    expect(await registrationNow()).toBe('RETIRED');
    expect(await upload()).toBe(403);
    // The other store is untouched, and only the retired one offers a reactivation.
    expect(await page.getByTestId('stores').locator('tbody tr', { hasText: 'RET-B' }).textContent()).not.toContain('RETIRED');
    expect(await page.getByRole('button', { name: /^Reactivate store/ }).count()).toBe(1);

    await page.getByRole('button', { name: 'Reactivate store RET-A' }).click();
    await dialog.getByRole('button', { name: 'Reactivate store', exact: true }).click();
    await expect.poll(() => row.textContent()).not.toContain('RETIRED');
    expect(await registrationNow()).toBe('ACTIVE');
    expect(await upload()).toBe(202);
  });

  it('registers one store id per line, exactly as typed, and refuses a line with whitespace at an end', async () => {
    const page = await openPage();
    const acme = seeded.partners[0]!;
    // Ids the API takes: spaces, commas and markup are part of an id, shown as text.
    const ids = ['<svg onload=alert(5)>', 'Main St, Unit  2'];
    await signIn(page, admin, `#/partners/${acme.partnerId}`);
    await page.getByTestId('stores').locator('tbody tr').first().waitFor();
    const field = page.getByRole('textbox', { name: /one store id per line/ });
    const register = page.getByRole('button', { name: 'Register stores' });

    await field.fill(`${ids[0]!}\n \n${ids[1]!} \n`);
    await expect.poll(() => page.getByTestId('store-id-problem').textContent()).toContain('Line 3 starts or ends with whitespace');
    expect(await register.isDisabled()).toBe(true);

    await field.fill(`${ids[0]!}\n\n${ids[1]!}\n`);
    expect(await page.getByTestId('store-id-problem').count()).toBe(0);
    await register.click();
    const dialog = page.locator('dialog[open]');
    expect(await dialog.getByTestId('confirm-items').locator('li').allTextContents()).toEqual(ids);
    await dialog.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => page.locator('.notice').textContent()).toBe(`Registered:\n${ids.join('\n')}\nAlready registered: none`);
    const stored = (await service.callHost(admin, 'GET', `hq/v1/partners/${acme.partnerId}/stores`)).body as {
      items: { store_id: string }[];
    };
    const storeIds = stored.items.map((s) => s.store_id);
    expect(storeIds).toEqual(expect.arrayContaining(ids));
    expect(storeIds).not.toContain('<svg');
    expect(await page.locator('svg[onload]').count()).toBe(0);
  });

  it('shows the details of the API’s refusal of an admin action', async () => {
    const page = await openPage();
    const acme = seeded.partners[0]!;
    await signIn(page, admin, `#/partners/${acme.partnerId}`);
    await page.getByTestId('stores').locator('tbody tr').first().waitFor();
    await page.getByRole('textbox', { name: /one store id per line/ }).fill('..');
    await page.getByRole('button', { name: 'Register stores' }).click();
    const dialog = page.locator('dialog[open]');
    await dialog.getByRole('button', { name: 'Register', exact: true }).click();
    await expect
      .poll(() => dialog.getByTestId('error-details').textContent())
      .toContain('store_ids/0 must be an identifier as partners send it');
  });

  it('keeps what the operator typed and ticked in the filters while the grid loads, and shows each filter of Back', async () => {
    const page = await openPage();
    const held: Route[] = [];
    await signIn(page, viewer, gridHash());
    await page.getByTestId('grid').waitFor();
    await page.route('**/hq/v1/store-days?*', (route) => {
      held.push(route);
    });
    // A new filter whose grid is still loading: the operator goes on filling in the next one.
    await page.getByLabel('Overdue only').check();
    await page.getByRole('button', { name: 'Show' }).click();
    await expect.poll(() => held.length).toBeGreaterThan(0);
    await page.getByLabel('Overdue only').uncheck();
    const status = page.locator('select[name="status"]');
    await status.selectOption('MATCHED');
    await page.getByLabel('From').fill(seeded.to);
    for (const route of held.splice(0)) await route.continue();
    await page.unroute('**/hq/v1/store-days?*');
    await page.getByTestId('grid').waitFor();
    // The loading note is gone: the page rendered with the grid.
    await expect.poll(() => page.getByTestId('status').textContent()).toBe('');
    expect([
      await page.getByLabel('Overdue only').isChecked(),
      await status.inputValue(),
      await page.getByLabel('From').inputValue(),
    ]).toEqual([false, 'MATCHED', seeded.to]);
    // Back shows the filter of the grid before, as its link says.
    await page.goBack();
    await expect.poll(() => page.getByLabel('Overdue only').isChecked()).toBe(false);
    expect(await page.getByLabel('From').inputValue()).toBe(seeded.from);
    await page.goForward();
    await expect.poll(() => page.getByLabel('Overdue only').isChecked()).toBe(true);
  });

  it('says which parameter the API refused: a grid range over 62 days', async () => {
    const page = await openPage();
    await signIn(page, viewer, '#/grid?from=2026-01-01&to=2026-03-31');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('INVALID_QUERY');
    const details = alert.getByTestId('error-details');
    expect(await details.locator('li').allTextContents()).toEqual(['to must be at most 62 days from from, inclusive']);
    expect(await details.locator('li code').allTextContents()).toEqual(['to']);
  });

  it('says what the API refused in a link (no calendar date, no such partner), and later links still work', async () => {
    const page = await openPage();
    // No `from`: the view would count 14 days back from `to`.
    await signIn(page, viewer, '#/grid?to=2026-13-01');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.textContent()).toContain('INVALID_QUERY');
    expect(await alert.getByTestId('error-details').locator('li code').allTextContents()).toEqual(['from', 'to']);
    await page.evaluate(() => (window.location.hash = '#/sales?to=2026-1-5'));
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('INVALID_QUERY');
    // A partner id that names no partner (ids are matched exactly): the API's reason, not "not served".
    for (const view of ['sales', 'unmapped']) {
      await page.evaluate((hash) => (window.location.hash = hash), `#/${view}?partner=NO-SUCH-PARTNER`);
      await expect.poll(() => page.getByRole('alert').textContent()).toContain('PARTNER_NOT_FOUND');
      expect(await page.locator('main').textContent()).not.toContain('not served by this version');
    }
    await page.evaluate(() => (window.location.hash = '#/operations'));
    await page.getByRole('heading', { name: 'Operations' }).waitFor();
  });

  it('says a day link names no calendar date, and later links still work', async () => {
    const page = await openPage();
    const { partnerId, storeId, businessDate } = seeded.mismatched;
    const day = (date: string) => `#/day/${partnerId}/${storeId}/${date}`;
    await signIn(page, viewer, day('2026-13-01'));
    await expect.poll(() => page.getByTestId('invalid-date').textContent()).toContain('“2026-13-01”, which is not a calendar date');
    // A day that does not exist is refused too, not rolled over to 2 March.
    await page.evaluate((hash) => (window.location.hash = hash), day('2026-02-30'));
    await expect.poll(() => page.getByTestId('invalid-date').textContent()).toContain('“2026-02-30”');
    expect(await page.locator('main').textContent()).not.toContain('Mar 2, 2026');
    await page.evaluate((hash) => (window.location.hash = hash), day(businessDate));
    await page.getByTestId('comparison').locator('tbody tr').first().waitFor();
    expect(await page.getByTestId('invalid-date').count()).toBe(0);
  });

  it('sorts a table by any column and exports the rows as CSV', async () => {
    const page = await openPage();
    await signIn(page, admin, '#/operations');
    const partners = page.getByTestId('partners');
    await partners.locator('tbody tr').nth(1).waitFor();
    const ids = () => partners.locator('tbody tr td:first-child').allTextContents();
    const ascending = await ids();
    // Text sorts naturally (numbers inside ids by value), in the operator's language order.
    expect(ascending).toEqual([...ascending].sort(new Intl.Collator('en-US', { numeric: true, sensitivity: 'base' }).compare));
    await partners.getByRole('button', { name: /^Partner/ }).click();
    expect(await partners.locator('th').first().getAttribute('aria-sort')).toBe('descending');
    expect(await ids()).toEqual([...ascending].reverse());

    const download = page.waitForEvent('download');
    await partners.getByRole('button', { name: /Export CSV/ }).click();
    const file = await (await download).path();
    const lines = readFileSync(file, 'utf8')
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('partner_id,name,status,rate_limit_per_minute,created_at');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([...ascending].reverse());
  });

  it('lists the webhook deliveries given up as the API does, newest first, with the endpoint’s origin only', async () => {
    const deadLetters = new WebhookDeadLetterRepository(service.services.storage.tables.webhookDeadLetters);
    const partnerId = seeded.mismatched.partnerId;
    const base = {
      partnerId,
      eventType: 'reconciliation.completed',
      targetOrigin: 'https://hooks.example.com',
      attempts: 8,
      lastErrorClass: 'HTTP_ERROR',
      lastStatus: 503,
      createdAt: '2026-03-02T00:00:00.000Z',
    };
    await deadLetters.add({ ...base, eventId: 'evt_console_older', deadLetteredAt: '2026-03-03T00:00:00.000Z' });
    const { lastStatus: _noAnswer, ...timedOut } = base;
    await deadLetters.add({
      ...timedOut,
      eventId: 'evt_console_newer',
      lastErrorClass: 'TIMEOUT',
      targetOrigin: 'https://hooks.example.com:8443/secret-path?token=t',
      deadLetteredAt: '2026-03-04T00:00:00.000Z',
    });
    const page = await openPage();
    await signIn(page, viewer, '#/operations');
    const table = page.getByTestId('webhook-failures');
    await table.locator('tbody tr').nth(1).waitFor();
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...(tr as HTMLTableRowElement).cells].map((cell) => cell.textContent)));
    // Partner, event, event id, attempts, last error, endpoint (given up is in the viewer's time zone).
    expect(rows.map((cells) => cells.slice(0, 6))).toEqual([
      [partnerId, base.eventType, 'evt_console_newer', '8', 'TIMEOUT', 'https://hooks.example.com:8443'],
      [partnerId, base.eventType, 'evt_console_older', '8', 'HTTP_ERROR 503', 'https://hooks.example.com'],
    ]);
    expect(JSON.stringify(rows)).not.toMatch(/secret-path|token=/);
    expect(await table.locator('tbody tr a').first().getAttribute('href')).toBe(`#/partners/${encodeURIComponent(partnerId)}`);
  });

  it('reads on a phone in the operator’s locale', async () => {
    const page = await openPage({ viewport: { width: 390, height: 844 }, locale: 'de-DE', isMobile: true, hasTouch: true });
    const { partnerId, storeId, businessDate } = seeded.mismatched;
    await signIn(page, admin, `#/day/${partnerId}/${storeId}/${businessDate}`);
    await page.getByTestId('comparison').locator('tbody tr').first().waitFor();
    expect(await page.locator('h1').textContent()).toContain('03.03.2026');
    expect(((await page.getByTestId('comparison').textContent()) ?? '').replace(/\u00a0/g, ' ')).toContain('-5,00 USD');
    // Wide tables scroll inside their own box; the page itself never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.goto(consoleUrl(service) + gridHash());
    await page.getByTestId('grid').waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await page.screenshot({ path: path.join(screenshotDir, 'console-phone.png') });
  });

  it('shows daily sales per currency as the API reports them, per partner unless asked per store', async () => {
    const salesApi = (by = 'store') =>
      service.callHost(admin, 'GET', `hq/v1/sales?from=${seeded.from}&to=${seeded.to}&group_by=${by},day&limit=200`);
    // A day's sales figures are written just after its result: wait until the last days' are in.
    let seen = -1;
    await expect
      .poll(
        async () => {
          const count = ((await salesApi()).body as { items?: unknown[] }).items?.length ?? 0;
          const settled = count === seen;
          seen = count;
          return settled;
        },
        { interval: 1500, timeout: 60_000 },
      )
      .toBe(true);
    const page = await openPage();
    // Per partner by default: a line per partner and day, whatever the number of stores.
    await signIn(page, admin, `#/sales?from=${seeded.from}&to=${seeded.to}`);
    const perPartner = await salesApi('partner');
    if (perPartner.status === 200) {
      const partnerItems = (perPartner.body as { items: { currency: string; store_id?: string }[] }).items;
      expect(partnerItems.every((i) => i.store_id === undefined)).toBe(true);
      for (const currency of new Set(partnerItems.map((i) => i.currency))) {
        const block = page.getByTestId(`sales-${currency}`);
        await block.waitFor();
        expect(await block.locator('table:not(.u-legend) tbody tr').count()).toBe(
          partnerItems.filter((i) => i.currency === currency).length,
        );
        expect(await block.locator('table:not(.u-legend) th', { hasText: 'Store' }).count()).toBe(0);
      }
    }
    await page.evaluate((hash) => (window.location.hash = hash), `#/sales?from=${seeded.from}&to=${seeded.to}&by=store`);
    await page.locator('table:not(.u-legend) th', { hasText: 'Store' }).first().waitFor();
    const api = await salesApi();
    if (api.status === 404) {
      await expect.poll(() => page.locator('main').textContent()).toContain('not served by this version');
      return;
    }
    const items = (api.body as { items: { currency: string }[] }).items;
    for (const currency of new Set(items.map((i) => i.currency))) {
      const block = page.getByTestId(`sales-${currency}`);
      await block.waitFor();
      // The chart's legend is a table too (uPlot's .u-legend): count the rows of the data table only.
      expect(await block.locator('table:not(.u-legend) tbody tr').count()).toBe(items.filter((i) => i.currency === currency).length);
      expect(await block.locator('canvas').count()).toBeGreaterThan(0);
    }
    await page.screenshot({ path: path.join(screenshotDir, 'console-sales.png'), fullPage: true });
  });
});
