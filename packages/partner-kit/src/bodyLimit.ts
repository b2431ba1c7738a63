/**
 * The service's request-body limit, read from local.settings.sample.json: the file the checked-in
 * OpenAPI document states the limit from (src/openapi/writeDocs.ts), which a test holds equal to
 * the app setting in infra/. Imported, like the schemas, so that the bundle carries the file and the
 * kit's source holds no second copy of the number.
 */
import settings from '../../../local.settings.sample.json';
import { ApiError } from '../../../src/errors/ApiError.js';

/** The largest body the service reads, in bytes (MAX_REQUEST_BODY_BYTES); a larger one is answered 413. */
export const serviceMaxBodyBytes = Number(settings.Values.MAX_REQUEST_BODY_BYTES);

/**
 * The service's 413 PAYLOAD_TOO_LARGE for a body of `size` bytes, as sent (UTF-8), or undefined
 * when it fits. The service stops reading at the limit, so its message cannot say by how much; the
 * kit holds the whole body, so it names the size beside the limit.
 */
export function bodyOverLimit(size: number): ApiError | undefined {
  if (size <= serviceMaxBodyBytes) return undefined;
  return new ApiError('PAYLOAD_TOO_LARGE', `The request body is ${size} bytes, more than the limit of ${serviceMaxBodyBytes} bytes.`);
}
