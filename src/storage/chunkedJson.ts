/**
 * A table string property holds at most 64 KiB (32K UTF-16 characters). Larger JSON values
 * (receipt warnings, product bodies) are split over numbered properties `<name>0`, `<name>1`, …
 */
const chunkChars = 30_000;

export function toChunkedProperties(name: string, value: unknown): Record<string, string | number> {
  const json = JSON.stringify(value);
  const properties: Record<string, string | number> = {};
  let count = 0;
  for (let offset = 0; offset < json.length || count === 0; offset += chunkChars) {
    properties[`${name}${count}`] = json.slice(offset, offset + chunkChars);
    count++;
  }
  properties[`${name}Chunks`] = count;
  return properties;
}

export function fromChunkedProperties<T>(name: string, entity: Record<string, unknown>): T | undefined {
  const count = entity[`${name}Chunks`];
  if (typeof count !== 'number') return undefined;
  let json = '';
  for (let i = 0; i < count; i++) json += String(entity[`${name}${i}`] ?? '');
  return JSON.parse(json) as T;
}
