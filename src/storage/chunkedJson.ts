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

/** The value `toChunkedProperties` stored under `name`; undefined when the row has none. */
export function fromChunkedProperties(name: string, entity: Record<string, unknown>): unknown {
  const count = entity[`${name}Chunks`];
  if (typeof count !== 'number') return undefined;
  let json = '';
  for (let i = 0; i < count; i++) {
    const chunk = entity[`${name}${i}`];
    if (typeof chunk !== 'string') throw new Error(`Chunk ${i} of the stored ${name} is missing.`);
    json += chunk;
  }
  return JSON.parse(json);
}
