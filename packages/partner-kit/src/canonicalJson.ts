/**
 * JSON as JSON.stringify writes it (toJSON, undefined members left out, undefined in arrays as
 * null), with every object's keys in an order fixed by the keys alone (sorted; integer-like keys
 * first, as JavaScript orders them): the same content always gives the same bytes, however the
 * caller built its objects. pushDay sends its bodies so and derives their batch_ids from these
 * bytes, so a day sent again is byte for byte the batches the service already holds: the service
 * answers the same bytes as a repeat whatever its checks say today, while a body written otherwise
 * is a repeat only once it passes them (a store retired since would refuse it).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, member: unknown) =>
    member !== null && typeof member === 'object' && !Array.isArray(member)
      ? Object.fromEntries(Object.entries(member).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : member,
  );
}
