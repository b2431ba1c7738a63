/**
 * The HQ console used with the keyboard alone and read out by assistive technology, where an
 * accessibility audit found it wanting. Real Chromium against the real service; the data are
 * partners and stores registered with the HQ tool, none of them sending, so every day of theirs in
 * the past is an overdue close.
 */
import type { Browser, Page, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestOperator, type TestPartner, type TestService } from '../support/startTestService.js';
import { chromiumMissing, launchChromium } from './support/chromium.js';
import { buildConsole, consoleUrl } from './support/consoleBuild.js';

const missing = chromiumMissing();
// CI installs Chromium (.ci/run), so there a missing browser fails the run instead of skipping it.
const skip = missing !== undefined && process.env.CI === undefined;
if (skip) console.warn(`HQ console keyboard tests skipped: ${missing}`);

const from = '2026-03-02';
const to = '2026-03-05';
/** Six stores × four days without a close: more overdue closes than the list shows open. */
const crowdedStores = ['C-1', 'C-2', 'C-3', 'C-4', 'C-5', 'C-6'];
/** Thirty stores × two weeks: a grid taller than the window, and wider than a phone's. */
const tallStores = Array.from({ length: 30 }, (_, i) => `T-${String(i + 1).padStart(2, '0')}`);
const tallTo = '2026-03-15';

let service: TestService;
let build: ReturnType<typeof buildConsole>;
let admin: TestOperator;
let browser: Browser;
/** Registered before the range: every date of every store is a day link (and overdue). */
let crowded: TestPartner;
/** One store registered on the range's third date: no day before it, so no link in the first column. */
let late: TestPartner;
/** Registered before the range: every day of the two weeks is a link. */
let tall: TestPartner;
const problems: string[] = [];

describe.skipIf(skip)('the HQ console with the keyboard', () => {
  beforeAll(async () => {
    build = buildConsole();
    service = await startTestService({ services: { consoleAssetsDir: build.dir } });
    [admin, browser, crowded, late, tall] = await Promise.all([
      service.createOperator('admin'),
      launchChromium(),
      service.createPartner({ stores: crowdedStores, registeredAt: new Date('2026-03-01T00:00:00Z') }),
      service.createPartner({ stores: ['L-1'], registeredAt: new Date('2026-03-04T12:00:00Z') }),
      service.createPartner({ stores: tallStores, registeredAt: new Date('2026-03-01T00:00:00Z') }),
    ]);
  }, 180_000);

  afterAll(async () => {
    await browser.close();
    await service.stop();
    build.remove();
    expect(problems).toEqual([]);
  });

  async function openPage(viewport = { width: 1280, height: 860 }): Promise<Page> {
    const context = await browser.newContext({ locale: 'en-US', timezoneId: 'UTC', viewport });
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    return page;
  }

  async function signIn(page: Page, hash: string): Promise<void> {
    await page.goto(consoleUrl(service) + hash);
    await page.getByLabel('Operator key').fill(admin.key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByTestId('who').textContent()).toContain(admin.name);
  }

  const gridHash = (partner: TestPartner) => `#/grid?from=${from}&to=${to}&partner=${partner.partnerId}`;

  /** What has the focus, said briefly: a heading by its text, a grid cell by its place. */
  const focused = (page: Page) =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLElement | null;
      if (!element || element === document.body) return 'body';
      if (element.dataset.r !== undefined) return `cell ${element.dataset.r},${element.dataset.c}`;
      const text = element.textContent.trim().replace(/\s+/g, ' ');
      return `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${element.closest('dialog') ? ' in dialog' : ''}: ${text}`;
    });

  /** Two frames drawn: whatever the last input changes (a re-render, a focus fix-up) has happened. */
  const rendered = (page: Page) =>
    page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          requestAnimationFrame(() => {
            requestAnimationFrame(() => {
              resolve();
            });
          });
        }),
    );

  it('skips to the content without leaving the page or its filters', async () => {
    const page = await openPage();
    await signIn(page, gridHash(crowded));
    // Reloaded with the key kept in the tab: the page starts where a loaded document does.
    await page.reload();
    await page.getByTestId('grid').waitFor();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a: Skip to content');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toMatch(/^main#main: /);
    expect(await page.evaluate(() => window.location.hash)).toBe(gridHash(crowded));
    expect(await page.getByLabel('Partner').inputValue()).toBe(crowded.partnerId);
    await page.getByTestId('grid').waitFor();
  });

  it('keeps exactly one day of the grid in the tab order: the first with a link, or the one last focused', async () => {
    const page = await openPage();
    const tabStops = () =>
      page
        .getByTestId('grid')
        .locator('a[tabindex="0"]')
        .evaluateAll((links) => links.map((a) => `${a.closest('tr')?.dataset.store} ${a.closest('td')?.dataset.date}`));

    // The late store's first two dates have no day: the tab stop is its first day that has one.
    await signIn(page, gridHash(late));
    await page.getByTestId('grid').waitFor();
    expect(await tabStops()).toEqual(['L-1 2026-03-04']);
    // The last column head's sort button is the stop before the grid's days.
    await page.getByRole('button', { name: /^Issues/ }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('cell 0,2');

    await page.evaluate((hash) => (window.location.hash = hash), gridHash(crowded));
    await page.getByTestId('grid').locator('tr[data-store="C-6"]').waitFor();
    expect(await tabStops()).toEqual(['C-1 2026-03-02']);
    await page.locator('a[data-r="0"][data-c="0"]').focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toBe('cell 1,1');
    await expect.poll(() => tabStops()).toEqual(['C-2 2026-03-03']);

    // Sorted the other way, the cell keeps its place in the tab order wherever its row went.
    await page.getByRole('button', { name: /^Store/ }).click();
    await expect.poll(() => page.getByTestId('grid').locator('tbody tr').first().getAttribute('data-store')).toBe('C-6');
    expect(await tabStops()).toEqual(['C-2 2026-03-03']);
    await page.getByRole('button', { name: /^Issues/ }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('cell 4,1');
  });

  /**
   * Where the focused day, its column's date heading and its row's store heading are drawn, in
   * viewport pixels. A key press is handled, and the day scrolled into view, before press() returns.
   */
  const focusedCellBoxes = (page: Page) =>
    page.evaluate(() => {
      const cell = document.activeElement as HTMLElement;
      const box = (element: Element | null | undefined) => {
        const rect = element?.getBoundingClientRect();
        return { top: rect?.top ?? NaN, bottom: rect?.bottom ?? NaN, left: rect?.left ?? NaN, right: rect?.right ?? NaN };
      };
      const table = cell.closest('table');
      return {
        place: `cell ${cell.dataset.r},${cell.dataset.c}`,
        cell: box(cell),
        dateHead: box(table?.querySelectorAll('thead th.day-head')[Number(cell.dataset.c)]),
        storeHead: box(cell.closest('tr')?.querySelector('th.store-head')),
        viewport: { width: window.innerWidth, height: window.innerHeight },
      };
    });

  /** Scroll offsets are whole pixels, boxes are not: up to a pixel past an edge is at the edge. */
  const slack = 1;
  /** Fifty key presses, each measured: some 20 s on an idle machine, near a minute on a busy one. */
  const manyKeysTimeout = 120_000;

  it(
    'keeps the dates above a focused day far down a tall grid',
    async () => {
      const page = await openPage();
      await signIn(page, `#/grid?from=${from}&to=${tallTo}&partner=${tall.partnerId}`);
      await page.getByTestId('grid').locator('tr[data-store="T-30"]').waitFor();
      const expectDateAbove = async (r: number) => {
        const { place, cell, dateHead, viewport } = await focusedCellBoxes(page);
        expect(place).toBe(`cell ${r},3`);
        // The day and its date are both in the window, the date above the day and not over it.
        expect(cell.bottom, place).toBeLessThanOrEqual(viewport.height + slack);
        expect(dateHead.top, place).toBeGreaterThanOrEqual(-slack);
        expect(dateHead.bottom, place).toBeLessThanOrEqual(cell.top + slack);
      };
      await page.locator('a[data-r="0"][data-c="3"]').focus();
      for (let r = 1; r <= 25; r += 1) {
        await page.keyboard.press('ArrowDown');
        await expectDateAbove(r);
      }
      // Back up, a day scrolled into view stops below the date row, not under it.
      for (let r = 24; r >= 0; r -= 1) {
        await page.keyboard.press('ArrowUp');
        await expectDateAbove(r);
      }
    },
    manyKeysTimeout,
  );

  it(
    'scrolls a day focused on a phone clear of the sticky store column, without scrolling the page sideways',
    async () => {
      const page = await openPage({ width: 360, height: 740 });
      await signIn(page, `#/grid?from=${from}&to=${tallTo}&partner=${tall.partnerId}`);
      await page.getByTestId('grid').locator('tr[data-store="T-30"]').waitFor();
      await page.locator('a[data-r="2"][data-c="0"]').focus();
      for (let c = 1; c <= 13; c += 1) await page.keyboard.press('ArrowRight');
      expect(await focused(page)).toBe('cell 2,13');
      for (let c = 12; c >= 0; c -= 1) {
        await page.keyboard.press('ArrowLeft');
        const { place, cell, storeHead, viewport } = await focusedCellBoxes(page);
        expect(place).toBe(`cell 2,${c}`);
        // Wholly right of the store column that stays at the left edge, and inside the window.
        expect(cell.left, place).toBeGreaterThanOrEqual(storeHead.right - slack);
        expect(cell.right, place).toBeLessThanOrEqual(viewport.width + slack);
      }
      for (const width of [320, 360, 640]) {
        await page.setViewportSize({ width, height: 740 });
        await rendered(page);
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), `${width} px`).toBe(true);
      }
    },
    manyKeysTimeout,
  );

  it('lists a few overdue closes open and many closed, with their count', async () => {
    const page = await openPage();
    await signIn(page, gridHash(late));
    const list = page.locator('details.overdue-list');
    await list.waitFor();
    expect(await list.locator('summary').textContent()).toBe('2 closes overdue');
    expect(await list.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(true);

    await page.evaluate((hash) => (window.location.hash = hash), gridHash(crowded));
    await expect.poll(() => list.locator('summary').textContent()).toBe('24 closes overdue');
    expect(await list.evaluate((details) => (details as HTMLDetailsElement).open)).toBe(false);
    // From the filters to the grid: the summary is one stop, its 24 links none until it is opened.
    await page.getByRole('button', { name: 'Show' }).focus();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('summary: 24 closes overdue');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('button: Export CSV of the reconciliation grid');
    await page.getByRole('button', { name: 'Show' }).focus();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    expect(await list.locator('a').count()).toBe(24);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toMatch(/^a: /);
  });

  it('moves the focus to the heading of each new page and titles every page', async () => {
    const page = await openPage();
    await page.goto(`${consoleUrl(service)}#/partners/${crowded.partnerId}`);
    await page.getByLabel('Operator key').waitFor();
    // Nothing of the partner's page is shown yet: the address does not name the sign-in page.
    await expect.poll(() => page.title()).toBe('Sign in · HQ console');

    await page.goto(consoleUrl(service) + gridHash(crowded));
    await page.getByLabel('Operator key').fill(admin.key);
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('h1#grid-title: Reconciliation');
    expect(await page.title()).toBe('Reconciliation · HQ console');

    await page.locator('a[data-r="0"][data-c="1"]').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe(`h1#day-title: C-1 · Mar 3, 2026 ${crowded.partnerId}`);
    expect(await page.title()).toBe(`C-1 · Mar 3, 2026 · ${crowded.partnerId} · HQ console`);

    await page.goBack();
    await expect.poll(() => focused(page)).toBe('h1#grid-title: Reconciliation');

    await page.evaluate((hash) => (window.location.hash = hash), `#/partners/${crowded.partnerId}`);
    await expect.poll(() => focused(page)).toBe(`h1#partner-title: Partner ${crowded.partnerId}`);
    expect(await page.title()).toBe(`Partner ${crowded.partnerId} · HQ console`);

    // A new filter is the same page: the focus stays on the form that asked for it.
    await page.evaluate((hash) => (window.location.hash = hash), gridHash(crowded));
    await expect.poll(() => focused(page)).toBe('h1#grid-title: Reconciliation');
    await page.getByLabel('Overdue only').check();
    await page.getByRole('button', { name: 'Show' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => window.location.hash)).toContain('overdue=true');
    await page.getByTestId('grid').waitFor();
    await rendered(page);
    expect(await focused(page)).toBe('button: Show');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await expect.poll(() => focused(page)).toBe('h1: HQ console');
    expect(await page.title()).toBe('Sign in · HQ console');
  });

  it('keeps a confirmation open and focused while its request runs, and then focuses what happened', async () => {
    const page = await openPage();
    const partner = await service.createPartner({ stores: ['K-1'] });
    const held: Route[] = [];
    await page.route('**/keys/*/revoke', (route) => {
      held.push(route);
    });
    await signIn(page, `#/partners/${partner.partnerId}`);
    await page.getByTestId('keys').locator('tbody tr').first().waitFor();

    await page.getByRole('button', { name: `Revoke key ${partner.keyId}` }).click();
    const dialog = page.locator('dialog[open]');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => held.length).toBe(1);
    await rendered(page);
    expect(await focused(page)).toBe('button in dialog: Revoke key');
    // Escape while the request runs would hide its answer: the dialog stays.
    await page.keyboard.press('Escape');
    await page.keyboard.press('Escape');
    await rendered(page);
    expect(await dialog.count()).toBe(1);
    await held[0]!.fulfill({
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ error: { code: 'CONFLICT', message: 'Refused for this test.' } }),
    });
    await expect.poll(() => dialog.getByRole('alert').textContent()).toContain('Refused for this test.');

    // Sent again and done: the key's button is gone, and the focus is on the notice that says so.
    await page.unroute('**/keys/*/revoke');
    await dialog.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => focused(page)).toBe(`p: Key ${partner.keyId} revoked.`);
    await expect.poll(() => page.getByRole('button', { name: `Revoke key ${partner.keyId}` }).count()).toBe(0);
    expect(await focused(page)).toBe(`p: Key ${partner.keyId} revoked.`);

    await page.getByLabel('Store ids to register').fill('K-2');
    await page.getByRole('button', { name: 'Register stores' }).click();
    await dialog.getByRole('button', { name: 'Register', exact: true }).click();
    await expect.poll(() => focused(page)).toBe('p: Registered: K-2 Already registered: none');
  });

  it('borders every kind of field 3:1 against the field and the page (WCAG 1.4.11)', async () => {
    const page = await openPage();
    await signIn(page, `#/partners/${crowded.partnerId}`);
    await page.getByLabel('Store ids to register').waitFor();
    const fields = await page
      .locator('input:not([type="checkbox"]), select, textarea')
      .evaluateAll((elements) =>
        elements.map((element) => [
          getComputedStyle(element).borderTopColor,
          getComputedStyle(element).backgroundColor,
          getComputedStyle(document.body).backgroundColor,
        ]),
      );
    expect(fields.length).toBeGreaterThanOrEqual(3);
    for (const [border, background, pageBackground] of fields) {
      expect(contrast(border!, background!), `${border} on ${background}`).toBeGreaterThanOrEqual(3);
      expect(contrast(border!, opaque(pageBackground!)), `${border} on the page`).toBeGreaterThanOrEqual(3);
    }
  });

  it('names the problem of the store id field in its description', async () => {
    const page = await openPage();
    await signIn(page, `#/partners/${crowded.partnerId}`);
    const field = page.getByLabel('Store ids to register');
    await field.fill(' C-7');
    const problem = page.getByTestId('store-id-problem');
    await problem.waitFor();
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    const describedBy = ((await field.getAttribute('aria-describedby')) ?? '').split(' ');
    expect(describedBy).toContain(await problem.getAttribute('id'));
    expect(describedBy).toHaveLength(2);
    await field.fill('C-7');
    await expect.poll(() => problem.count()).toBe(0);
    expect(await field.getAttribute('aria-describedby')).toBe(describedBy[0]);
  });

  it('says what is loading in one status region that stands, empty, from the first render', async () => {
    const page = await openPage();
    const held: Route[] = [];
    await page.route(
      (url) => url.pathname.endsWith('/hq/v1/store-days'),
      (route) => {
        held.push(route);
      },
    );
    await page.goto(consoleUrl(service) + gridHash(crowded));
    await page.getByLabel('Operator key').waitFor();
    const region = page.locator('[role="status"]');
    expect(await region.count()).toBe(1);
    expect(await region.textContent()).toBe('');
    // Marked, to tell it from an element inserted later together with its text.
    await region.evaluate((element) => {
      element.dataset.standing = 'yes';
    });

    await page.getByLabel('Operator key').fill(admin.key);
    await page.keyboard.press('Enter');
    await expect.poll(() => held.length).toBe(1);
    await expect.poll(() => region.textContent()).toBe('Loading the reconciliation grid…');
    expect(await region.count()).toBe(1);
    expect(await region.getAttribute('data-standing')).toBe('yes');

    await held[0]!.continue();
    await page.getByTestId('grid').waitFor();
    await expect.poll(() => region.textContent()).toBe('');
  });
});

/** A transparent page background is the canvas: white. */
function opaque(colour: string): string {
  return colour === 'rgba(0, 0, 0, 0)' ? 'rgb(255, 255, 255)' : colour;
}

/** WCAG 2's contrast ratio of two opaque `rgb(r, g, b)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (colour: string) => {
    const [r, g, b] = (colour.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map((part) => {
      const c = Number(part) / 255;
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (light! + 0.05) / (dark! + 0.05);
}
