/**
 * Every error code the service answers with, and its HTTP status. Codes are stable: partners
 * branch on them. Messages are for people and may change.
 */
export const errorCatalogue = {
  INVALID_PAYLOAD: { status: 400, message: 'The request body or path is invalid.' },
  BATCH_TOO_LARGE: { status: 400, message: 'The batch holds more records than the limit allows.' },
  UNKNOWN_STANDARD_CODE: { status: 400, message: 'A standard_code is not in the standard transaction type list.' },
  UNAUTHORIZED: { status: 401, message: 'The API key is missing or invalid.' },
  STORE_NOT_ALLOWED: { status: 403, message: 'A store_id is not registered for this partner.' },
  PARTNER_INACTIVE: { status: 403, message: 'The partner account is not active.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than the limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be sent with Content-Type: application/json.' },
  RATE_LIMITED: { status: 429, message: 'Too many calls; retry after the number of seconds in Retry-After.' },
  INTERNAL_ERROR: { status: 500, message: 'The service failed to process the request; it is safe to retry with the same batch_id.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Storage is temporarily unavailable; retry with the same batch_id.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;
