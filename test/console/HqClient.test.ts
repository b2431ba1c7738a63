import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HqApiError, HqClient } from '../../console/src/api/HqClient.js';
import { stringMatching } from '../support/matchers.js';

/**
 * A stand-in HQ API over real HTTP: `/pages/<n>` is a list of n pages of one item each; every
 * request is counted. The client only needs `window.location.origin` of the browser.
 */
let server: Server;
const requests: URL[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://stand-in');
    requests.push(url);
    const pages = Number(url.pathname.split('/').pop());
    const page = Number(url.searchParams.get('continuation') ?? '1');
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ items: [{ page }], continuation: page < pages ? String(page + 1) : null }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  Object.assign(globalThis, { window: { location: { origin: `http://127.0.0.1:${port}` }, dispatchEvent: () => true } });
});

afterAll(async () => {
  Reflect.deleteProperty(globalThis, 'window');
  await new Promise((resolve) => server.close(resolve));
});

describe("the console's HQ client", () => {
  it('follows the continuation to the last page', async () => {
    requests.length = 0;
    const items = await new HqClient('key').getAll<{ page: number }>('pages/100', { partner_id: 'acme' });
    expect(items.map((item) => item.page)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    expect(requests.every((url) => url.searchParams.get('partner_id') === 'acme' && url.searchParams.get('limit') === '200')).toBe(true);
  });

  it('refuses a list longer than it shows instead of cutting it short', async () => {
    requests.length = 0;
    const error = await new HqClient('key').getAll('pages/101').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HqApiError);
    expect(error).toMatchObject({ code: 'LIST_TOO_LONG', message: stringMatching(/more than 20\D?000 entries.*Narrow it/) });
    // It stops where it refuses: no request for the page it would not show.
    expect(requests).toHaveLength(100);
  });
});
