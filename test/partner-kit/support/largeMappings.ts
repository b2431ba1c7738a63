import { randomUUID } from 'node:crypto';
import type { MappingEntry } from '../../../packages/partner-kit/src/contractTypes.js';

/** `count` mapping entries the service would take, each named by `nameLength` times `letter`. */
export function longNamedMappings(count: number, nameLength: number, letter = 'n'): MappingEntry[] {
  return Array.from({ length: count }, (_, index) => ({
    source_code: `C${String(index).padStart(5, '0')}`,
    source_name: letter.repeat(nameLength),
    standard_code: 'SALE',
  }));
}

/**
 * A mappings body of exactly `size` bytes that the service would take but for its size: as many
 * entries with 500-character names as fit, then JSON whitespace (counted like any other byte) up to
 * the size, so that the size is computed rather than approximated.
 */
export function mappingsBodyOfSize(size: number): Buffer {
  const batchId = randomUUID();
  const envelope = Buffer.byteLength(JSON.stringify({ batch_id: batchId, mappings: [] }));
  // Every entry has the same length; the comma before all but the first makes the arithmetic safe.
  const entryBytes = Buffer.byteLength(JSON.stringify(longNamedMappings(1, 500)[0])) + 1;
  const text = JSON.stringify({ batch_id: batchId, mappings: longNamedMappings(Math.floor((size - envelope) / entryBytes), 500) });
  return Buffer.from(text + ' '.repeat(size - Buffer.byteLength(text)));
}
