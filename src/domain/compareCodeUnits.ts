/**
 * Orders two strings by their UTF-16 code units: the order Table Storage keeps keys in, and the
 * same on every machine whatever its locale (`localeCompare` is neither).
 */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
