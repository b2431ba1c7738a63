/** A text cell that a spreadsheet would run as a formula (`=`, `+`, `@`, a tab, or `-` not starting a number). */
const formulaStart = /^[=+@\t\r]|^-(?!\d+(\.\d+)?$)/;

/** One cell: quoted when it holds a comma, quote or line break; formula-like text is defused with a leading `'`. */
function csvCell(value: string): string {
  const safe = formulaStart.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180 text (CRLF line ends) of a header row and data rows. */
export function toCsv(header: readonly string[], rows: readonly (readonly string[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
