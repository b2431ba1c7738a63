import { ApiError } from './ApiError.js';

/**
 * A caller refused though its key is known: a revoked or expired key (401, as an unknown key is),
 * or a key of an inactive partner (403 PARTNER_INACTIVE). It carries the partner and key id for the
 * access-log line only (never the answer), so HQ finds who still calls with a revoked key.
 */
export class RefusedCallerError extends ApiError {
  constructor(
    code: 'UNAUTHORIZED' | 'PARTNER_INACTIVE',
    readonly partnerId: string,
    readonly keyId: string,
  ) {
    super(code);
  }
}
