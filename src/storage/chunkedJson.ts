import { gunzipSync, gzipSync } from 'node:zlib';

/**
 * A table string property holds at most 64 KiB (32K UTF-16 characters). Larger JSON values
 * (receipt warnings, product bodies) are split over numbered properties `<name>0`, `<name>1`, …
 */
const chunkChars = 30_000;
/** A binary property holds at most 64 KiB. */
const chunkBytes = 64 * 1024;

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

/**
 * Like {@link toChunkedProperties} for a value of up to two chunks; a larger value is stored
 * gzip-compressed in binary properties `<name>Gz0`, `<name>Gz1`, … A receipt's warnings (up to five
 * per record of a 500-record batch, the same few sentences again and again) shrink about fiftyfold,
 * so they can never outgrow a row.
 */
export function toCompactProperties(name: string, value: unknown): Record<string, string | number | Uint8Array> {
  const json = JSON.stringify(value);
  if (json.length <= 2 * chunkChars) return toChunkedProperties(name, value);
  const zipped = gzipSync(json);
  const properties: Record<string, number | Uint8Array> = {};
  let count = 0;
  for (let offset = 0; offset < zipped.length; offset += chunkBytes) {
    properties[`${name}Gz${count}`] = new Uint8Array(zipped.subarray(offset, offset + chunkBytes));
    count++;
  }
  properties[`${name}GzChunks`] = count;
  return properties;
}

/** The value of {@link toChunkedProperties} or {@link toCompactProperties}; undefined when absent. */
export function fromChunkedProperties(name: string, entity: Record<string, unknown>): unknown {
  const zippedCount = entity[`${name}GzChunks`];
  if (typeof zippedCount === 'number') {
    const parts: Buffer[] = [];
    for (let i = 0; i < zippedCount; i++) {
      const part = entity[`${name}Gz${i}`];
      // The SDK hands binary properties back as bytes; a base64 string is taken as well.
      parts.push(part instanceof Uint8Array ? Buffer.from(part) : Buffer.from(typeof part === 'string' ? part : '', 'base64'));
    }
    return JSON.parse(gunzipSync(Buffer.concat(parts)).toString('utf8'));
  }
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
