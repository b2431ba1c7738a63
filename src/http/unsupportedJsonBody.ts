import { errorCatalogue } from '../errors/errorCatalogue.js';

/**
 * Why a request body is not JSON as the service reads it, or undefined when it is. The media type
 * must be `application/json`; a `charset` parameter may only name UTF-8, the one encoding JSON
 * has (RFC 8259 §8.1), since the body is read as UTF-8 whatever it says; and the body must not be
 * content-coded (gzip, br: RFC 9110 §8.4), which the service does not undo, so a compressed body
 * is not mistaken for a malformed one. Each is answered 415, as RFC 9110 §15.5.16 has it.
 */
export function unsupportedJsonBody(headers: Pick<Headers, 'get'>): string | undefined {
  const [mediaType, ...parameters] = (headers.get('content-type') ?? '').split(';');
  if (mediaType?.trim().toLowerCase() !== 'application/json') return errorCatalogue.UNSUPPORTED_MEDIA_TYPE.message;
  for (const parameter of parameters) {
    const [name, value = ''] = parameter.split('=', 2).map((part) => part.trim());
    if (name?.toLowerCase() !== 'charset') continue;
    const charset = value.replace(/^"(.*)"$/, '$1').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8')
      return 'The request body must be JSON in UTF-8: a charset parameter may only name utf-8.';
  }
  const codings = (headers.get('content-encoding') ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  if (codings.length > 0) return 'The request body must be sent uncompressed: Content-Encoding is not supported.';
  return undefined;
}
