import { createHash } from 'node:crypto';
import type { HttpRequest } from '@azure/functions';
import { ApiError } from '../../errors/ApiError.js';

/**
 * Continuation tokens are opaque to callers: base64url of a small JSON object that says where the
 * next page starts, and which list it continues. Only the edge encodes and decodes them; services
 * see typed cursors.
 *
 * A token names its list (`q`): a digest of the path and of every query parameter but
 * `continuation` and `limit`. Sent with another filter or to another route, a cursor would
 * silently skip or end a list, so such a token is refused; the page size may change between pages.
 */
export function encodeContinuation(request: Pick<HttpRequest, 'url'>, cursor: Record<string, string> | undefined): string | null {
  if (cursor === undefined) return null;
  return Buffer.from(JSON.stringify({ v: 1, q: listOf(request), ...cursor }), 'utf8').toString('base64url');
}

/**
 * The cursor of a token, or 400 INVALID_QUERY when the token is not one this list handed out. An
 * `optional` field may be absent (a token of a release that did not write it yet), never other
 * than a string.
 */
export function decodeContinuation<K extends string, O extends string = never>(
  request: Pick<HttpRequest, 'url'>,
  token: string | undefined,
  fields: readonly K[],
  optional: readonly O[] = [],
): (Record<K, string> & Partial<Record<O, string>>) | undefined {
  if (token === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null) throw invalid();
  const { v, q } = parsed as { v?: unknown; q?: unknown };
  if (v !== 1 || q !== listOf(request)) throw invalid();
  const cursor = {} as Record<K, string> & Partial<Record<O, string>>;
  for (const field of [...fields, ...optional]) {
    const value = (parsed as Record<string, unknown>)[field];
    if (value === undefined && (optional as readonly string[]).includes(field)) continue;
    if (typeof value !== 'string') throw invalid();
    (cursor as Record<string, string>)[field] = value;
  }
  return cursor;
}

/** The list a request reads: its path and its filters, in a stable order. */
function listOf(request: Pick<HttpRequest, 'url'>): string {
  const url = new URL(request.url);
  const filters = [...url.searchParams].filter(([name]) => name !== 'continuation' && name !== 'limit').sort(compareEntries);
  return createHash('sha256')
    .update(JSON.stringify([url.pathname, filters]))
    .digest('base64url')
    .slice(0, 16);
}

function compareEntries(a: [string, string], b: [string, string]): number {
  if (a[0] !== b[0]) return a[0] < b[0] ? -1 : 1;
  if (a[1] === b[1]) return 0;
  return a[1] < b[1] ? -1 : 1;
}

function invalid(): ApiError {
  return new ApiError('INVALID_QUERY', undefined, [
    { path: '/continuation', message: 'must be the continuation of the previous page, unchanged, sent with the same path and filters' },
  ]);
}
