import { readdirSync } from 'node:fs';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleContentSecurityPolicy } from '../../src/console/serveConsole.js';
import { startTestService, type TestService } from '../support/startTestService.js';
import { buildConsole, consoleUrl } from './support/consoleBuild.js';

let service: TestService;
let build: ReturnType<typeof buildConsole>;
let files: string[];
beforeAll(async () => {
  build = buildConsole();
  files = readdirSync(build.dir);
  service = await startTestService({ services: { consoleAssetsDir: build.dir } });
});
afterAll(async () => {
  await service.stop();
  build.remove();
});

const securityHeaders = (response: Response) => ({
  csp: response.headers.get('content-security-policy'),
  nosniff: response.headers.get('x-content-type-options'),
  frame: response.headers.get('x-frame-options'),
});

describe('the console page at /console/', () => {
  it('serves index.html anonymously, revalidated, under a CSP that allows this origin only', async () => {
    const response = await fetch(consoleUrl(service));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(securityHeaders(response)).toEqual({ csp: consoleContentSecurityPolicy, nosniff: 'nosniff', frame: 'DENY' });
    expect(consoleContentSecurityPolicy).toContain("default-src 'none'");
    expect(consoleContentSecurityPolicy).not.toMatch(/https?:|\*|unsafe/);
    const html = await response.text();
    // Every asset the page names is one of the built files, addressed relatively (no other origin).
    const referenced = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(referenced.filter((ref) => !ref.startsWith('data:')).map((ref) => ref.replace(/^\.\//, ''))).toEqual(
      expect.arrayContaining(files.filter((f) => f !== 'index.html')),
    );
    expect(referenced.every((ref) => ref.startsWith('./') || ref.startsWith('data:'))).toBe(true);
  });

  it('redirects /console to /console/ so the relative links resolve', async () => {
    const response = await fetch(consoleUrl(service).replace(/\/$/, ''), { redirect: 'manual' });
    expect(response.status).toBe(308);
    expect(new URL(response.headers.get('location')!, consoleUrl(service).replace(/\/$/, '')).href).toBe(consoleUrl(service));
  });

  it('serves the hashed script and style with their types, cached for good', async () => {
    const script = files.find((f) => f.endsWith('.js'))!;
    const style = files.find((f) => f.endsWith('.css'))!;
    for (const [file, type] of [
      [script, 'text/javascript; charset=utf-8'],
      [style, 'text/css; charset=utf-8'],
    ] as const) {
      const response = await fetch(consoleUrl(service, file));
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(type);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    }
  });

  it('answers 304 to a matching If-None-Match', async () => {
    const first = await fetch(consoleUrl(service));
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await fetch(consoleUrl(service), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves nothing outside the built files: traversal, folders and unknown names are 404', async () => {
    const base = consoleUrl(service);
    for (const attempt of [
      'host.json',
      '..%2Fhost.json',
      '..%2F..%2Fpackage.json',
      '%2e%2e/%2e%2e/package.json',
      'index.html%00.js',
      '.%2Findex.html',
      'nope.js',
    ]) {
      const response = await fetch(`${base}${attempt}`, { redirect: 'manual' });
      expect(response.status, attempt).toBe(404);
    }
    // fetch() resolves dot segments itself; a raw request path reaches the function unresolved.
    const prefixPath = new URL(base).pathname;
    for (const raw of ['a/../index.html', '../../host.json', '../../../package.json', '..%2F..%2Fhost.json', '%2F..%2Fhost.json']) {
      const status = await rawGet(`${prefixPath}${raw}`);
      expect(status.code, raw).toBe(404);
      expect(status.body, raw).not.toContain('routePrefix');
    }
  });

  it('is read-only: another method gets the host’s bodiless 404, as in Azure', async () => {
    const response = await fetch(consoleUrl(service), { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('');
  });
});

/** GET with the path sent exactly as given (no URL normalisation). */
function rawGet(rawPath: string): Promise<{ code: number; body: string }> {
  const { hostname, port } = new URL(service.baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request({ hostname, port, path: rawPath, method: 'GET' }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => {
        resolve({ code: response.statusCode ?? 0, body });
      });
    });
    request.on('error', reject);
    request.end();
  });
}
