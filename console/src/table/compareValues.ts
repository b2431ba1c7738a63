import Big from 'big.js';

/** What a sortable column yields for a row: text, a count, or an amount as a decimal string. */
export type SortValue = string | number | { readonly decimal: string } | undefined;

/**
 * Orders two cells of one column: numbers by value, decimal amounts exactly (never through a float),
 * text in the operator's language order with numbers inside text compared as numbers; empty last.
 */
export function compareValues(a: SortValue, b: SortValue, collator: Intl.Collator): number {
  if (a === undefined || b === undefined) return a === b ? 0 : a === undefined ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'object' && typeof b === 'object') return compareDecimals(a.decimal, b.decimal);
  return collator.compare(text(a), text(b));
}

function compareDecimals(a: string, b: string): number {
  try {
    return new Big(a).cmp(new Big(b));
  } catch {
    return a.localeCompare(b);
  }
}

function text(value: string | number | { readonly decimal: string }): string {
  return typeof value === 'object' ? value.decimal : String(value);
}
