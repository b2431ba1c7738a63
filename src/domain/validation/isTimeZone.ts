const known = new Map<string, boolean>();

/**
 * Whether a name is an IANA time zone the runtime knows (e.g. `Asia/Tokyo`, `UTC`). Offsets such
 * as `+09:00` are not zone names and are refused even where the runtime would accept them.
 * Results are cached: the same few zones recur in every store upload.
 */
export function isTimeZone(name: string): boolean {
  const cached = known.get(name);
  if (cached !== undefined) return cached;
  let valid = /^[A-Za-z]/.test(name);
  if (valid) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: name });
    } catch {
      valid = false;
    }
  }
  if (known.size < 1000) known.set(name, valid);
  return valid;
}
