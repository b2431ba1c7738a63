import { createHash } from 'node:crypto';
import { canonicalJson } from './canonicalJson.js';

/**
 * A batch_id derived from what the batch says rather than drawn at random: the same body (its
 * batch_id aside) gives the same id in every call and every process, so a day sent again after a
 * failure partway is the same batches, and the service answers those it applied ALREADY_RECEIVED
 * instead of applying them a second time under new ids. A body that differs in anything (another
 * record, version, batch_seq or total) gets another id. The hash covers the body's canonical bytes
 * (`canonicalJson`, the bytes pushDay sends, less the batch_id), so records built in another key
 * order still give the same id. `seed` starts a new series of ids for the same content (a batch
 * that ended FAILED keeps that answer under its id).
 *
 * The id is an RFC 9562 UUID of version 8 (custom): the first 128 bits of a SHA-256, with the
 * version and variant bits set.
 */
export function contentBatchId(endpoint: string, body: Readonly<Record<string, unknown>>, seed = ''): string {
  const { batch_id: _ignored, ...content } = body;
  const digest = createHash('sha256').update(`pos-partner-kit batch_id 1\n${endpoint}\n${seed}\n`).update(canonicalJson(content)).digest();
  const bytes = digest.subarray(0, 16);
  bytes.writeUInt8((bytes.readUInt8(6) & 0x0f) | 0x80, 6); // version 8
  bytes.writeUInt8((bytes.readUInt8(8) & 0x3f) | 0x80, 8); // variant 10
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
