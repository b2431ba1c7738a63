const uuidShape = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A UUID in its 36-character hyphenated form, in either case (the schema's `uuid`). */
export function isUuidShaped(value: string): boolean {
  return uuidShape.test(value);
}
