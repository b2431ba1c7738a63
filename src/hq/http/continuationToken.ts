import { ApiError } from '../../errors/ApiError.js';

/**
 * Continuation tokens are opaque to callers: base64url of a small JSON object that says where the
 * next page starts. Only the edge encodes and decodes them; services see typed cursors.
 */
export function encodeContinuation(cursor: Record<string, string> | undefined): string | null {
  return cursor === undefined ? null : Buffer.from(JSON.stringify({ v: 1, ...cursor }), 'utf8').toString('base64url');
}

/** The cursor of a token, or 400 INVALID_QUERY when the token is not one this route handed out. */
export function decodeContinuation<K extends string>(token: string | undefined, fields: readonly K[]): Record<K, string> | undefined {
  if (token === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (typeof parsed !== 'object' || parsed === null || (parsed as { v?: unknown }).v !== 1) throw invalid();
  const cursor = {} as Record<K, string>;
  for (const field of fields) {
    const value = (parsed as Record<string, unknown>)[field];
    if (typeof value !== 'string') throw invalid();
    cursor[field] = value;
  }
  return cursor;
}

function invalid(): ApiError {
  return new ApiError('INVALID_QUERY', undefined, [
    { path: '/continuation', message: 'must be the continuation of the previous page, unchanged' },
  ]);
}
