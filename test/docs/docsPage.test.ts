/**
 * GET /pos/v1/openapi.json and GET /pos/v1/docs on the running service: served anonymously, the
 * docs page renders every operation and webhook event of the spec in a real browser (Debian's Chromium) and asks no
 * other host for anything.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderPartnerOpenApiFile } from '../../src/openapi/writeDocs.js';
import { startTestService, type TestService } from '../support/startTestService.js';

const chromiumPath = '/usr/bin/chromium';
interface Operation {
  operationId: string;
  summary: string;
}
const spec = JSON.parse(renderPartnerOpenApiFile()) as {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
};
const operations = Object.values(spec.paths).flatMap((item) => Object.values(item));
const events = Object.values(spec.webhooks).flatMap((item) => Object.values(item));

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.stop();
});

describe('the served spec and docs page', () => {
  it("serves the OpenAPI document without a key: docs/openapi.json, with this environment's event types", async () => {
    const response = await service.call(null, 'GET', 'openapi.json');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const { webhooks, ...served } = response.body as typeof spec;
    const { webhooks: documented, ...rest } = spec;
    expect(served).toEqual(rest);
    expect(Object.keys(webhooks)).toEqual(Object.keys(documented));
    // A partner reads the exact type its events carry here (EVENT_TYPE_PREFIX), not an example's.
    for (const [name, item] of Object.entries(webhooks)) {
      const text = JSON.stringify(item);
      expect(text).toContain(`"type":"com.example.pos.${name}"`);
      expect(text).toContain('`type` is `com.example.pos.` followed by the event name');
      expect(text).not.toContain('com.contoso.pos');
    }
    expect(JSON.stringify(documented)).toContain('com.contoso.pos');
  });

  it('serves the page and its scripts without a key, with a policy that allows only this host', async () => {
    const page = await service.call(null, 'GET', 'docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("default-src 'none'");
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("connect-src 'self'");
    expect(String(page.body)).not.toMatch(/https?:\/\//);
    for (const asset of ['api-reference.js', 'init.js']) {
      const script = await service.call(null, 'GET', `docs/${asset}`);
      expect(script.status, asset).toBe(200);
      expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    }
    for (const missing of ['nothing.js', 'constructor', '__proto__']) {
      expect((await service.call(null, 'GET', `docs/${missing}`)).status, missing).toBe(404);
    }
  });

  describe.skipIf(!existsSync(chromiumPath))('in a browser', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({
        executablePath: chromiumPath,
        args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      });
    });
    afterAll(async () => {
      await browser.close();
    });

    it('renders every operation and event of the spec and asks no other host for anything', async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      const origin = new URL(service.baseUrl).origin;
      const elsewhere: string[] = [];
      const refused: string[] = [];
      page.on('request', (request) => {
        const url = request.url();
        if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(url);
      });
      page.on('console', (message) => {
        if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) refused.push(message.text());
      });
      await page.goto(`${service.baseUrl}/docs`);
      await page.getByText(operations[0]!.summary).first().waitFor({ timeout: 30_000 });
      const text = await page.locator('body').innerText();
      for (const operation of operations) expect(text, operation.operationId).toContain(operation.summary);
      expect(events).toHaveLength(3);
      for (const event of events) expect(text, event.operationId).toContain(event.summary);
      expect(elsewhere).toEqual([]);
      expect(refused).toEqual([]);
      await page.close();
    });
  });
});
