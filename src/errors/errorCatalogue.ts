/**
 * Every error code the service answers with, and its HTTP status. Codes are stable: partners
 * branch on them. Messages are for people and may change.
 */
export const errorCatalogue = {
  INVALID_PAYLOAD: { status: 400, message: 'The request body or path is invalid.' },
  BATCH_TOO_LARGE: { status: 400, message: 'The batch holds more records than the limit allows.' },
  STORE_DAY_TOO_LARGE: {
    status: 400,
    message: 'The store and business date would receive more transactions or batches than the limit allows; ask HQ before sending more.',
  },
  UNKNOWN_STANDARD_CODE: { status: 400, message: 'A standard_code is not in the standard transaction type list.' },
  INVALID_QUERY: { status: 400, message: 'A query or path parameter is missing or invalid.' },
  UNAUTHORIZED: { status: 401, message: 'The API key is missing or invalid.' },
  STORE_NOT_ALLOWED: { status: 403, message: 'A store_id is not registered for this partner.' },
  PARTNER_INACTIVE: { status: 403, message: 'The partner account is not active.' },
  OPERATOR_KEY_REQUIRED: { status: 403, message: 'This route needs an HQ operator key; partner keys open only the partner API.' },
  ADMIN_ROLE_REQUIRED: { status: 403, message: 'This action needs an operator key with the admin role.' },
  PARTNER_NOT_FOUND: { status: 404, message: 'No partner has this id.' },
  STORE_NOT_FOUND: { status: 404, message: 'The store is not registered for this partner.' },
  KEY_NOT_FOUND: { status: 404, message: 'The partner has no key with this id.' },
  WEBHOOK_NOT_FOUND: { status: 404, message: 'No webhook is registered for this partner.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than the limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be sent with Content-Type: application/json.' },
  RATE_LIMITED: { status: 429, message: 'Too many calls; retry after the number of seconds in Retry-After.' },
  BATCH_FAILED: {
    status: 500,
    message:
      'Storage refused this batch after it passed validation, so it was not applied: none of its transactions are counted. ' +
      'Do not send this batch_id again, it stays failed; give HQ the request_id. HQ lists failed batches.',
  },
  /** The caller closed the connection mid-upload; nobody reads this answer, it marks the access log. */
  CLIENT_CLOSED_REQUEST: { status: 499, message: 'The client closed the connection before the request body was read; nothing was stored.' },
  INTERNAL_ERROR: {
    status: 500,
    message:
      'The service failed on this request in a way a retry will not fix: do not send it again unchanged. Give HQ the request_id so it can find the cause.',
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    // Also the answer of reads and of HQ's routes, which carry no batch_id.
    message:
      'Storage is temporarily unavailable; the request was not acknowledged. Send it again after the seconds in Retry-After (a push with the same batch_id).',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof errorCatalogue;
