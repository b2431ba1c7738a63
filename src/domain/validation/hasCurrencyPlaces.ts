/**
 * Whether a decimal string carries exactly `digits` decimal places: with 2, `1.50` and `-3.00`
 * pass and `1.5` or `1` fail; with 0, `100` passes and `100.0` fails. The string is assumed to
 * match the schema's decimal pattern already.
 */
export function hasCurrencyPlaces(value: string, digits: number): boolean {
  const dot = value.indexOf('.');
  if (dot < 0) return digits === 0;
  return value.length - dot - 1 === digits;
}
