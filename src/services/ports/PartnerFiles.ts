import type { PartnerDataset } from '../../reports/reportDatasets.js';

/** What writing one of a partner's master-data files did. */
export type PartnerFileWrite = 'written' | 'unchanged' | 'removed' | 'none';

/** The report files written once per partner (`<dataset>/partner_id=<p>/part-0.parquet`). */
export interface PartnerFiles {
  /**
   * Writes the partner's file of `dataset` built by `build`, unless the file stored has the same
   * `contentKey` (then nothing is built or written: 'unchanged'). `build` answering undefined (no
   * row) removes the file ('removed', or 'none' when there was none).
   */
  write(
    dataset: PartnerDataset,
    partnerId: string,
    contentKey: string,
    build: () => Promise<Uint8Array | undefined>,
  ): Promise<PartnerFileWrite>;
}
