/**
 * JSON Pointer (RFC 6901) helpers for problem paths. A path may name a property that came from
 * the request (an unknown field, a duplicate key); such a name is shown only when it is short and
 * made of harmless characters, so that a path never carries arbitrary submitted text.
 */
import { containsCardNumber } from './containsCardNumber.js';

const displaySafeName = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * Whether a property name taken from a request may appear in a problem path. A name that holds a
 * payment card number is never shown: error bodies must not carry one back.
 */
export function isDisplaySafeName(name: string): boolean {
  return displaySafeName.test(name) && !containsCardNumber(name);
}

/** One reference token, escaped (`~` → `~0`, `/` → `~1`). */
export function escapePointerToken(token: string | number): string {
  if (typeof token === 'number') return String(token);
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}
