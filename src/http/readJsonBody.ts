import type { HttpRequest } from '@azure/functions';
import { ApiError } from '../errors/ApiError.js';
import { ClientAbortError } from './ClientAbortError.js';

/**
 * Reads a push body after the checks that need no parsing: the media type must be JSON (415) and
 * the body at most `maxBytes` (413), judged on Content-Length first and on the bytes read after.
 */
export async function readJsonBody(request: HttpRequest, maxBytes: number): Promise<Uint8Array> {
  const mediaType = (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw new ApiError('PAYLOAD_TOO_LARGE', tooLarge(maxBytes));
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await request.arrayBuffer());
  } catch (error) {
    // Reading fails only when the upload did not complete: the caller closed or reset the connection.
    throw new ClientAbortError({ cause: error });
  }
  if (bytes.byteLength > maxBytes) throw new ApiError('PAYLOAD_TOO_LARGE', tooLarge(maxBytes));
  return bytes;
}

function tooLarge(maxBytes: number): string {
  return `The request body is larger than ${maxBytes} bytes.`;
}
