import type http from 'node:http';
import { HttpResponse, type Cookie } from '@azure/functions';

/** Response headers the library does not pass on from a handler (hop-by-hop headers). */
const hopByHopHeaders = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'trailers',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Writes what the handler returned, converted by the library's own HttpResponse as in Azure (a
 * jsonBody is labelled `application/json` unless the handler set a type); nothing → 204.
 */
export async function writeHandlerResponse(res: http.ServerResponse, result: unknown, closeConnection: boolean): Promise<void> {
  const close: Record<string, string> = closeConnection ? { connection: 'close' } : {};
  if (result === undefined || result === null) {
    res.writeHead(204, close);
    res.end();
    return;
  }
  const response = result instanceof HttpResponse ? result : new HttpResponse(result);
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie' && !hopByHopHeaders.has(name)) headers[name] = value;
  });
  const setCookies = [...response.headers.getSetCookie(), ...response.cookies.map(serializeCookie)];
  if (setCookies.length > 0) headers['set-cookie'] = setCookies;
  const body = Buffer.from(await response.arrayBuffer());
  if (body.length > 0 || !('content-length' in headers)) headers['content-length'] = String(body.length);
  res.writeHead(response.status, { ...headers, ...close });
  res.end(body);
}

function serializeCookie(cookie: Cookie): string {
  const parts = [`${cookie.name}=${cookie.value}`];
  if (cookie.domain) parts.push(`Domain=${cookie.domain}`);
  if (cookie.path) parts.push(`Path=${cookie.path}`);
  if (cookie.expires !== undefined) parts.push(`Expires=${new Date(cookie.expires).toUTCString()}`);
  if (cookie.maxAge !== undefined) parts.push(`Max-Age=${cookie.maxAge}`);
  if (cookie.secure) parts.push('Secure');
  if (cookie.httpOnly) parts.push('HttpOnly');
  if (cookie.sameSite) parts.push(`SameSite=${cookie.sameSite}`);
  return parts.join('; ');
}
