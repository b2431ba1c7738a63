const known = new Map<string, boolean>();

/**
 * Whether a name is an IANA time zone the runtime knows (e.g. `Asia/Tokyo`, `UTC`), written in its
 * own letter case. Offsets such as `+09:00` are not zone names and are refused even where the
 * runtime would accept them. So is `america/new_york`: the runtime ignores case, but the name is
 * copied as sent into HQ's views and the stores dataset, where a reader looking it up in the zone
 * database (file names on most systems) would not find it. Results are cached: the same few zones
 * recur in every store upload.
 */
export function isTimeZone(name: string): boolean {
  const cached = known.get(name);
  if (cached !== undefined) return cached;
  let valid = /^[A-Za-z]/.test(name);
  if (valid) {
    try {
      const resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
      // The runtime names a zone written in another case by its own spelling (a link it may name
      // by its target: that is not a case difference).
      valid = resolved === name || resolved.toLowerCase() !== name.toLowerCase();
    } catch {
      valid = false;
    }
  }
  if (known.size < 1000) known.set(name, valid);
  return valid;
}
