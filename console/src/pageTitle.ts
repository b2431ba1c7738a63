import { formatBusinessDate } from './format/formatDate.js';
import type { Route } from './route.js';

/**
 * The document title of a page, most specific part first so that a tab list, a history menu and a
 * screen reader's window list tell pages apart. `undefined` is the sign-in page, whatever the
 * address names: nothing of that page is shown yet.
 */
export function pageTitle(route: Route | undefined): string {
  return `${pageName(route)} · HQ console`;
}

function pageName(route: Route | undefined): string {
  if (route === undefined) return 'Sign in';
  switch (route.view) {
    case 'grid':
      return 'Reconciliation';
    case 'day':
      return `${route.storeId} · ${formatBusinessDate(route.businessDate)} · ${route.partnerId}`;
    case 'sales':
      return 'Sales';
    case 'unmapped':
      return 'Unmapped codes';
    case 'operations':
      return 'Operations';
    case 'partner':
      return `Partner ${route.partnerId}`;
  }
}
