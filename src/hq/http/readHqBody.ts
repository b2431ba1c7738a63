import type { HttpRequest } from '@azure/functions';
import { ApiError } from '../../errors/ApiError.js';
import { parseJsonBody } from '../../bodyParsing/parseJsonBody.js';
import { unsupportedJsonBody } from '../../http/unsupportedJsonBody.js';
import { hqLimits } from '../hqLimits.js';
import type { HqRequestValidator } from './HqRequestValidator.js';
import type { BodyName, BodyTypes } from './hqSchemas.js';

/**
 * The body of an admin action, checked in the partner API's order: media type (415), size while
 * reading (413, never more than the limit held), the hostile-input-safe JSON parse (400), then the
 * action's schema (400). An action that takes no body accepts none at all.
 */
export async function readHqBody<N extends BodyName>(request: HttpRequest, validator: HqRequestValidator, name: N): Promise<BodyTypes[N]> {
  const bodyless = name === 'empty' && request.headers.get('content-type') === null;
  const unsupported = unsupportedJsonBody(request.headers);
  if (!bodyless && unsupported !== undefined) throw new ApiError('UNSUPPORTED_MEDIA_TYPE', unsupported);
  const bytes = await readLimited(request, hqLimits.maxBodyBytes);
  if (bytes.byteLength === 0 && name === 'empty') return validator.body(name, {});
  if (bodyless) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  const parsed = parseJsonBody(bytes);
  if (!parsed.ok) throw new ApiError('INVALID_PAYLOAD', 'The request body is not valid JSON.', parsed.problems);
  return validator.body(name, parsed.value);
}

async function readLimited(request: HttpRequest, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > maxBytes) throw tooLarge(maxBytes);
  const reader: ReadableStreamDefaultReader<Uint8Array> | undefined = request.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) throw tooLarge(maxBytes);
      chunks.push(value);
    }
  } finally {
    reader.releaseLock();
  }
  return Buffer.concat(chunks, total);
}

function tooLarge(maxBytes: number): ApiError {
  return new ApiError('PAYLOAD_TOO_LARGE', `The request body is larger than ${maxBytes} bytes.`);
}
