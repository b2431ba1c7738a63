import { describe, expect, it } from 'vitest';
import { pageTitle } from '../../console/src/pageTitle.js';
import { parseRoute } from '../../console/src/route.js';

describe('the document title of a console page', () => {
  it('names the page first, then the console', () => {
    expect(pageTitle(parseRoute('#/grid?from=2026-03-01'))).toBe('Reconciliation · HQ console');
    expect(pageTitle(parseRoute('#/sales'))).toBe('Sales · HQ console');
    expect(pageTitle(parseRoute('#/unmapped'))).toBe('Unmapped codes · HQ console');
    expect(pageTitle(parseRoute('#/operations'))).toBe('Operations · HQ console');
  });

  it('tells one day and one partner from another', () => {
    const day = pageTitle(parseRoute('#/day/acme/NYC-1/2026-03-03'));
    expect(day).toMatch(/^NYC-1 · .*2026.* · acme · HQ console$/);
    expect(day).not.toBe(pageTitle(parseRoute('#/day/acme/NYC-1/2026-03-04')));
    expect(pageTitle(parseRoute('#/partners/acme'))).toBe('Partner acme · HQ console');
  });

  it('is the sign-in page’s own when signed out, whatever the address names', () => {
    expect(pageTitle(undefined)).toBe('Sign in · HQ console');
  });
});
