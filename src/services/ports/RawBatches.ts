/** The exact bytes of every push, one per (partner, batch_id, case-insensitive), written once. */
export interface RawBatches {
  /** Stores the body unless one is stored for this batch; returns whether it was new. */
  putOnce(partnerId: string, batchId: string, body: Uint8Array, bodyHash: string): Promise<boolean>;
  get(partnerId: string, batchId: string): Promise<Buffer | undefined>;
  /** The SHA-256 recorded with the stored body; undefined when none is stored. */
  storedHash(partnerId: string, batchId: string): Promise<string | undefined>;
  /**
   * Replaces the stored body whose SHA-256 is `orphanHash` (a body no ledger entry stands for) with
   * this one; false when the stored body is no longer that one.
   */
  replaceOrphan(partnerId: string, batchId: string, body: Uint8Array, bodyHash: string, orphanHash: string): Promise<boolean>;
}
