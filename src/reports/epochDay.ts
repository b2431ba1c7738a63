/** Days since 1970-01-01 of a `YYYY-MM-DD` calendar date (Parquet DATE), or undefined when it is not one. */
export function epochDay(date: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const value = new Date(0);
  value.setUTCFullYear(year, month - 1, day);
  if (value.getUTCFullYear() !== year || value.getUTCMonth() !== month - 1 || value.getUTCDate() !== day) return undefined;
  return value.getTime() / 86_400_000;
}
