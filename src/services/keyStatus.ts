/**
 * The status an API key (partner or operator) has now: ACTIVE until revoked or past its expiry.
 * Only an ACTIVE key opens anything.
 */
export function keyStatus(key: { readonly status: 'ACTIVE' | 'REVOKED'; readonly expiresAt: string | undefined }, now: Date): KeyStatus {
  if (key.status === 'REVOKED') return 'REVOKED';
  if (key.expiresAt !== undefined && Date.parse(key.expiresAt) <= now.getTime()) return 'EXPIRED';
  return 'ACTIVE';
}

export type KeyStatus = 'ACTIVE' | 'EXPIRED' | 'REVOKED';
