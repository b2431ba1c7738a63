import type { TransactionAction } from '@azure/data-tables';
import { jsonByteLength } from './jsonByteLength.js';
import { tableLimits } from './tableLimits.js';

/**
 * Request bytes one transaction may fill with entities: 4 MiB less room for the multipart
 * framing the SDK adds around the whole request.
 */
const transactionByteBudget = tableLimits.transactionBytes - 64 * 1024;

/**
 * Splits work for entity group transactions so that none holds more than 100 operations or more
 * than about 4 MiB of request, keeping the order. `sizeOf` estimates an item's share of the
 * request (see {@link actionSize}).
 */
export function transactionChunks<T>(items: readonly T[], sizeOf: (item: T) => number): T[][] {
  const chunks: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = sizeOf(item);
    if (current.length > 0 && (current.length >= tableLimits.transactionActions || bytes + size > transactionByteBudget)) {
      chunks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(item);
    bytes += size;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Whether `count` operations of `bytes` in all fit one transaction. */
export function fitsOneTransaction(count: number, bytes: number): boolean {
  return count <= tableLimits.transactionActions && bytes <= transactionByteBudget;
}

/**
 * An operation's share of a transaction request: its entity as UTF-8 JSON (with room for type
 * annotations), its keys three times over (percent-encoded in the operation's URL) and the
 * operation's own headers.
 */
export function actionSize(action: TransactionAction): number {
  return entityRequestSize(action[1]);
}

/**
 * An entity's share of a transaction request (see {@link actionSize}). The keys may be given apart
 * from the other properties, so a row need not be copied to be measured.
 */
export function entityRequestSize(entity: Readonly<Record<string, unknown>>, keys?: { partitionKey: string; rowKey: string }): number {
  let bytes = 1024;
  for (const name in entity) {
    if (!Object.hasOwn(entity, name) || (keys !== undefined && (name === 'partitionKey' || name === 'rowKey'))) continue;
    bytes += propertyRequestSize(name, entity[name]);
  }
  if (keys !== undefined) bytes += propertyRequestSize('partitionKey', keys.partitionKey) + propertyRequestSize('rowKey', keys.rowKey);
  return bytes;
}

function propertyRequestSize(name: string, value: unknown): number {
  const bytes = Buffer.byteLength(name, 'utf8') + 48;
  if (value instanceof Uint8Array) return bytes + Math.ceil(value.byteLength / 3) * 4;
  if (typeof value === 'string') return bytes + jsonByteLength(value) * (name === 'partitionKey' || name === 'rowKey' ? 4 : 1);
  return bytes + jsonByteLength(value ?? null);
}
