/** What writing a partner's stores file did. */
export type StoresFileWrite = 'written' | 'unchanged' | 'removed' | 'none';

/** The `stores` report file of each partner. */
export interface StoresFiles {
  /**
   * Writes the partner's stores file built by `build`, unless the file stored has the same
   * `contentKey` (then nothing is built or written: 'unchanged'). `build` answering undefined (no
   * store) removes the file ('removed', or 'none' when there was none).
   */
  write(partnerId: string, contentKey: string, build: () => Promise<Uint8Array | undefined>): Promise<StoresFileWrite>;
}
