/**
 * vitest types its asymmetric matchers as `any`, which would make every object holding one an
 * unchecked value; these hand the same matchers out as `unknown`.
 */
import { expect } from 'vitest';

/** Any string (`expect.any(String)`). */
export function anyString(): unknown {
  return expect.any(String);
}

/** A string matching `pattern` (`expect.stringMatching`). */
export function stringMatching(pattern: RegExp): unknown {
  return expect.stringMatching(pattern);
}
