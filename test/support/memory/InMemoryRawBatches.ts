import type { RawBatches } from '../../../src/services/ports/RawBatches.js';

/** Raw bodies in a map, for unit tests of services. */
export class InMemoryRawBatches implements RawBatches {
  private readonly bodies = new Map<string, { body: Buffer; hash: string }>();

  putOnce(partnerId: string, batchId: string, body: Uint8Array, bodyHash: string): Promise<boolean> {
    if (this.bodies.has(key(partnerId, batchId))) return Promise.resolve(false);
    this.bodies.set(key(partnerId, batchId), { body: Buffer.from(body), hash: bodyHash });
    return Promise.resolve(true);
  }

  get(partnerId: string, batchId: string): Promise<Buffer | undefined> {
    const stored = this.bodies.get(key(partnerId, batchId));
    return Promise.resolve(stored ? Buffer.from(stored.body) : undefined);
  }

  storedHash(partnerId: string, batchId: string): Promise<string | undefined> {
    return Promise.resolve(this.bodies.get(key(partnerId, batchId))?.hash);
  }

  replaceOrphan(partnerId: string, batchId: string, body: Uint8Array, bodyHash: string, orphanHash: string): Promise<boolean> {
    if (this.bodies.get(key(partnerId, batchId))?.hash !== orphanHash) return Promise.resolve(false);
    this.bodies.set(key(partnerId, batchId), { body: Buffer.from(body), hash: bodyHash });
    return Promise.resolve(true);
  }
}

function key(partnerId: string, batchId: string): string {
  return JSON.stringify([partnerId, batchId.toLowerCase()]);
}
