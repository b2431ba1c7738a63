import { jsonByteLength } from './jsonByteLength.js';
import { maxKeyLength } from './tableKey.js';

/**
 * What Azure Table Storage accepts, and how big a row is as it counts it. The service checks the
 * rows a push would write against these before its first write (see the repositories'
 * `…Problems` functions), so storage never refuses a validated batch half-way.
 */
export const tableLimits = {
  /** PartitionKey and RowKey: 1 KiB each, counted in UTF-16 (see tableKey.ts). */
  keyLength: maxKeyLength,
  /** A string property holds at most 64 KiB of UTF-16: 32,768 code units. */
  stringPropertyUnits: 32 * 1024,
  /** A binary property holds at most 64 KiB. */
  binaryPropertyBytes: 64 * 1024,
  /** An entity: 1 MiB. */
  entityBytes: 1024 * 1024,
  /** 255 properties, three of them PartitionKey, RowKey and Timestamp. */
  customProperties: 252,
  /** An entity group transaction: 100 operations of one partition… */
  transactionActions: 100,
  /** …in a request of at most 4 MiB. */
  transactionBytes: 4 * 1024 * 1024,
} as const;

/** A limit a row would break, in words that name no value. */
export interface RowProblem {
  /** The property that is too large, when one is. */
  readonly property?: string;
  readonly message: string;
}

/**
 * The size of an entity as Table Storage counts it (4 bytes, the keys in UTF-16, and per property
 * 8 bytes, its name in UTF-16 and its value: strings 4 + 2 per UTF-16 unit, numbers 8, booleans 1,
 * binary 4 + its bytes), or its UTF-8 JSON with room for the request's annotations, whichever is
 * larger: the storage emulator measures the JSON.
 * @internal tested on its own.
 */
export function entitySize(entity: Readonly<Record<string, unknown>>): number {
  let counted = 4;
  let json = 2;
  for (const name in entity) {
    if (!Object.hasOwn(entity, name)) continue;
    const value = entity[name];
    // Each property in the request: "name":value, plus room for a type annotation.
    json += Buffer.byteLength(name, 'utf8') + 4 + jsonSize(value) + 48;
    if (name === 'partitionKey' || name === 'rowKey') counted += typeof value === 'string' ? value.length * 2 : 0;
    else counted += 8 + name.length * 2 + valueSize(value);
  }
  return Math.max(counted, json);
}

/**
 * Every table limit the entity breaks (empty when storage will take it). A push checks each of its
 * rows, so the properties are read in one pass without copying their names.
 */
export function entityProblems(entity: Readonly<Record<string, unknown>>): RowProblem[] {
  const problems: RowProblem[] = [];
  for (const key of ['partitionKey', 'rowKey'] as const) {
    const value = entity[key];
    if (typeof value === 'string' && value.length > tableLimits.keyLength) {
      problems.push({ message: `its ${key} would be longer than ${tableLimits.keyLength} characters` });
    }
  }
  let custom = 0;
  let valueProblems: RowProblem[] | undefined;
  for (const name in entity) {
    if (!Object.hasOwn(entity, name) || name === 'partitionKey' || name === 'rowKey') continue;
    custom++;
    const value = entity[name];
    if (typeof value === 'string' && value.length > tableLimits.stringPropertyUnits) {
      (valueProblems ??= []).push({
        property: name,
        message: `it would take ${value.length} characters, at most ${tableLimits.stringPropertyUnits} fit in one value`,
      });
    } else if (value instanceof Uint8Array && value.byteLength > tableLimits.binaryPropertyBytes) {
      (valueProblems ??= []).push({
        property: name,
        message: `it would take ${value.byteLength} bytes, at most ${tableLimits.binaryPropertyBytes} fit in one value`,
      });
    }
  }
  if (custom > tableLimits.customProperties) {
    problems.push({ message: `it would need ${custom} properties, at most ${tableLimits.customProperties} are possible` });
  }
  if (valueProblems !== undefined) problems.push(...valueProblems);
  const size = entitySize(entity);
  if (size > tableLimits.entityBytes) {
    problems.push({
      message: `it would take ${formatBytes(size)} as stored, at most ${formatBytes(tableLimits.entityBytes)} fit in one row`,
    });
  }
  return problems;
}

function valueSize(value: unknown): number {
  if (typeof value === 'string') return 4 + value.length * 2;
  if (typeof value === 'boolean') return 1;
  if (value instanceof Uint8Array) return 4 + value.byteLength;
  if (typeof value === 'number' || typeof value === 'bigint' || value instanceof Date) return 8;
  if (value === null || value === undefined) return 0;
  return 4 + JSON.stringify(value).length * 2;
}

function jsonSize(value: unknown): number {
  if (value instanceof Uint8Array) return Math.ceil(value.byteLength / 3) * 4 + 2;
  return jsonByteLength(value);
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(2)} MiB` : `${Math.ceil(bytes / 1024)} KiB`;
}
