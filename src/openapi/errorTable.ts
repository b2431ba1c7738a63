import { errorCatalogue, type ErrorCode } from '../errors/errorCatalogue.js';

/**
 * The Markdown rows (HTTP, code, meaning) of an API description's error table: the codes its
 * operations can answer, in catalogue order, each once. The caller passes the codes its operations
 * list, so a code only another API answers never appears in this one's table.
 */
export function errorTable(codes: Iterable<ErrorCode>): string {
  const answered = new Set(codes);
  return (Object.keys(errorCatalogue) as ErrorCode[])
    .filter((code) => answered.has(code))
    .map((code) => `| ${errorCatalogue[code].status} | \`${code}\` | ${errorCatalogue[code].message} |`)
    .join('\n');
}
