/** What the operator typed into "Register stores", read one store id per line. */
export interface StoreIdLines {
  /** The ids to send, each exactly as typed, in order, each once. */
  readonly ids: readonly string[];
  /** 1-based numbers of the lines that start or end with whitespace: refused before sending. */
  readonly paddedLines: readonly number[];
}

/**
 * One store id per line. A store id may hold spaces, commas and any other visible character (the
 * contract's identifiers), so only a line break separates two ids; splitting on spaces or commas
 * would register the pieces of one id as several stores, each bogus one accepted for pushes until
 * an admin retires it. Blank lines are skipped. An id with whitespace at either end is one no
 * partner can send, and the HQ API refuses it; the console names such a line before sending rather
 * than trim it, which would register an id the operator did not type. `\s` is the whitespace of the
 * identifier pattern.
 */
export function readStoreIdLines(text: string): StoreIdLines {
  const ids: string[] = [];
  const paddedLines: number[] = [];
  text.split(/\r\n|\r|\n/).forEach((line, index) => {
    if (/^\s*$/u.test(line)) return;
    if (/^\s|\s$/u.test(line)) paddedLines.push(index + 1);
    else if (!ids.includes(line)) ids.push(line);
  });
  return { ids, paddedLines };
}
