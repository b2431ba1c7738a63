/** Whether a string of ASCII digits passes the Luhn (mod 10) check. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return sum % 10 === 0;
}

/** Whether a string of 8, 12, 13 or 14 digits carries a valid GS1 (EAN/UPC/GTIN) check digit. */
export function passesGtinCheck(digits: string): boolean {
  let sum = 0;
  const last = digits.length - 1;
  for (let i = last - 1, weight = 3; i >= 0; i--, weight = 4 - weight) sum += (digits.charCodeAt(i) - 48) * weight;
  return (10 - (sum % 10)) % 10 === digits.charCodeAt(last) - 48;
}
