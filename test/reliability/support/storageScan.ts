import { containsCardNumber } from '../../../src/domain/validation/containsCardNumber.js';
import { BatchLedger } from '../../../src/storage/BatchLedger.js';
import { decodeKeyPart, isDigestKeyPart } from '../../../src/storage/tableKey.js';
import type { TestService } from '../../support/startTestService.js';

/** What a look through all of a service's storage found (every figure should be 0 but rows and blobs). */
export interface StorageScan {
  readonly rows: number;
  readonly blobs: number;
  /** Where a card number is stored: `table/property` or `container/blob`. */
  readonly cardNumbers: string[];
  /** Rows and blobs that belong to a batch the service refused. */
  readonly refusedRows: string[];
  readonly pendingBeforeSweep: number;
  /** PENDING ledger entries left after the sweep ran over every one. */
  readonly pendingAfterSweep: number;
}

/**
 * Properties holding SHA-256 digests in hex: a digest's digit runs are not data anyone sent, and
 * one in a few hundred happens to pass the card rule.
 */
const digestProperties = new Set(['bodyHash', 'keyHash']);

/**
 * Runs the sweep over every PENDING batch, then reads every row of every table and every blob:
 * card numbers anywhere (values and keys), anything of a refused batch, and what is still PENDING.
 * The service must have been started with `abandonedAfterMs: 0`, so that the sweep can drop
 * entries whose body was never stored.
 */
export async function scanStorage(service: TestService, refusedBatchIds: ReadonlySet<string>): Promise<StorageScan> {
  const storage = service.services.storage;
  const ledger = new BatchLedger(storage.tables.batchLedger);
  const refused = new Set([...refusedBatchIds].map((id) => id.toLowerCase()));
  const pendingBefore: { partnerId: string; batchId: string }[] = [];
  for await (const entry of ledger.listPending()) pendingBefore.push(entry);
  for (const entry of pendingBefore) await service.services.sweeper.sweep(entry).catch(() => undefined);
  let pendingAfterSweep = 0;
  for await (const _ of ledger.listPending()) pendingAfterSweep += 1;

  const cardNumbers: string[] = [];
  const refusedRows: string[] = [];
  let rows = 0;
  for (const [name, table] of Object.entries(storage.tables)) {
    for await (const entity of table.listEntities()) {
      rows += 1;
      const keyParts = [entity.partitionKey, entity.rowKey].flatMap((key) => (key ?? '').replace(/^!batch\|/, '').split('|'));
      for (const part of keyParts) {
        if (isDigestKeyPart(part)) continue;
        const value = decodeKeyPart(part);
        if (containsCardNumber(value)) cardNumbers.push(`${name} key`);
        if (refused.has(value.toLowerCase())) refusedRows.push(`${name} key ${value}`);
      }
      for (const [property, value] of Object.entries(entity)) {
        if (typeof value !== 'string' || digestProperties.has(property)) continue;
        if (containsCardNumber(value)) cardNumbers.push(`${name}/${property}`);
        if (property === 'batchId' && refused.has(value.toLowerCase())) refusedRows.push(`${name}/${property} ${value}`);
      }
    }
  }
  let blobs = 0;
  for await (const container of storage.blobService.listContainers()) {
    const client = storage.blobService.getContainerClient(container.name);
    for await (const blob of client.listBlobsFlat()) {
      blobs += 1;
      if ([...refused].some((id) => blob.name.includes(id))) refusedRows.push(`${container.name}/${blob.name}`);
      const content = (await client.getBlockBlobClient(blob.name).downloadToBuffer()).toString('utf8');
      let strings: string[];
      try {
        strings = stringsOf(JSON.parse(content));
      } catch {
        strings = [content];
      }
      if (strings.some(containsCardNumber)) cardNumbers.push(`${container.name}/${blob.name}`);
    }
  }
  return { rows, blobs, cardNumbers, refusedRows, pendingBeforeSweep: pendingBefore.length, pendingAfterSweep };
}

/** Every string of a parsed JSON value, keys included. */
function stringsOf(value: unknown): string[] {
  const out: string[] = [];
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const next = stack.pop();
    if (typeof next === 'string') out.push(next);
    else if (Array.isArray(next)) stack.push(...(next as unknown[]));
    else if (next !== null && typeof next === 'object') {
      for (const [key, inner] of Object.entries(next)) {
        out.push(key);
        stack.push(inner);
      }
    }
  }
  return out;
}
