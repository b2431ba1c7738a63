import type { ReportFragments } from '../../../src/services/ports/ReportFragments.js';

/** Report fragments in a map, for unit tests of services. */
export class InMemoryReportFragments implements ReportFragments {
  private readonly bytes = new Map<string, Buffer>();

  get(partnerId: string, batchId: string): Promise<Buffer | undefined> {
    const stored = this.bytes.get(key(partnerId, batchId));
    return Promise.resolve(stored ? Buffer.from(stored) : undefined);
  }

  exists(partnerId: string, batchId: string): Promise<boolean> {
    return Promise.resolve(this.bytes.has(key(partnerId, batchId)));
  }

  put(partnerId: string, batchId: string, bytes: Uint8Array): Promise<void> {
    this.bytes.set(key(partnerId, batchId), Buffer.from(bytes));
    return Promise.resolve();
  }
}

/** A batch id names the same batch in upper or lower case, as in the batch ledger. */
function key(partnerId: string, batchId: string): string {
  return JSON.stringify([partnerId, batchId.toLowerCase()]);
}
