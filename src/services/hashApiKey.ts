import { createHash } from 'node:crypto';

/** SHA-256 of an API key, hex: the only form in which keys are stored or compared. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}
