import type { HttpHandler, HttpResponseInit } from '@azure/functions';
import type { ConsoleAssets } from './ConsoleAssets.js';

/**
 * Everything the page needs comes from this app: its own script and style, and the HQ API on the
 * same origin. Nothing may be framed, posted elsewhere or loaded from another origin.
 * @internal read by the test of the header instead of restating the policy.
 */
export const consoleContentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const securityHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': consoleContentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * Serves the console's static files under `console/{*path}`, anonymously: the files hold no data;
 * every figure comes from /hq/v1 with the operator's key. `/console` and `/console/` give the page.
 */
export function serveConsole(loadAssets: () => ConsoleAssets): HttpHandler {
  let assets: ConsoleAssets | undefined;
  return (request) => {
    assets ??= loadAssets();
    const requested = request.params.path ?? '';
    if (requested === '' && !new URL(request.url).pathname.endsWith('/')) {
      // The page's relative links need the trailing slash; a relative target keeps any route prefix.
      return Promise.resolve({ status: 308, headers: { ...securityHeaders, Location: 'console/' } });
    }
    const name = requested === '' ? 'index.html' : requested;
    const asset = assets.get(name);
    if (asset === undefined) return Promise.resolve(notFound());
    const headers: Record<string, string> = {
      ...securityHeaders,
      'Content-Type': asset.contentType,
      'Cache-Control': asset.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      ETag: asset.etag,
    };
    if (request.headers.get('if-none-match') === asset.etag) return Promise.resolve({ status: 304, headers });
    return Promise.resolve({ status: 200, headers, body: asset.body });
  };
}

/** Like the host's own answer to an unknown route: 404 without a body. */
function notFound(): HttpResponseInit {
  return { status: 404, headers: { ...securityHeaders, 'Cache-Control': 'no-cache' } };
}
