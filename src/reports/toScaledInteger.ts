/**
 * A decimal string as the unscaled integer of a Parquet DECIMAL(precision, scale): "12.34" at scale
 * 4 is 123400n. Exact: no float is involved, and nothing is rounded. Returns undefined when the
 * value has more decimal places than the scale or more digits than the precision allows, or is
 * not a plain decimal string; the caller reports which column it was.
 */
export function toScaledInteger(text: string, scale: number, precision: number): bigint | undefined {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) return undefined;
  const fraction = match[3] ?? '';
  if (fraction.length > scale) return undefined;
  const whole = (match[2] ?? '').replace(/^0+(?=\d)/, '');
  const digits = `${whole}${fraction.padEnd(scale, '0')}`.replace(/^0+(?=\d)/, '');
  if (digits.length > precision) return undefined;
  const magnitude = BigInt(digits);
  return match[1] === '-' ? -magnitude : magnitude;
}
