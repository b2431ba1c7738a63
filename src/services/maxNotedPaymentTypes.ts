/**
 * Payment types a reconciled store-day notes for a later direction change (`paymenttypeusage`):
 * the unknown ones first, then those with a direction HQ registered. Each is one row written per
 * reconciliation, so a day of thousands of made-up payment types costs no more than this; a POS
 * has a handful of tender kinds, and a type beyond the limit only misses the automatic re-run
 * (the day's close can be resent).
 */
export const maxNotedPaymentTypes = 50;
