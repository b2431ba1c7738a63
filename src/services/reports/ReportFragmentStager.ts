import { buildReportFragment } from '../../reports/buildReportFragment.js';
import { loadParquetFooterEncoder, loadParquetWriter } from '../../reports/loadParquetWriter.js';
import { encodeFragment } from '../../reports/ReportFragment.js';
import type { MappingCatalog } from '../catalog/MappingCatalog.js';
import type { Ledger } from '../ports/Ledger.js';
import type { PaymentDirections } from '../ports/PaymentDirections.js';
import type { RawBatches } from '../ports/RawBatches.js';
import type { ReportFragments } from '../ports/ReportFragments.js';
import { classifyReportError, type ReportFailure } from './classifyReportError.js';

export interface ReportFragmentStagerDependencies {
  readonly ledger: Pick<Ledger, 'get'>;
  readonly rawBatches: Pick<RawBatches, 'get'>;
  readonly fragments: Pick<ReportFragments, 'exists' | 'put'>;
  readonly mappings: Pick<MappingCatalog, 'current'>;
  readonly paymentDirections: Pick<PaymentDirections, 'listForPartner'>;
  /** Rows per Parquet row group. */
  readonly rowGroupRows?: number;
}

export type StageOutcome = 'staged' | 'already staged' | 'not a committed trade-record batch' | ReportFailure;

/**
 * Converts a committed trade-record batch into its report fragment in the background, after the
 * push has been answered, so that reconciling the day only assembles fragments. Never throws:
 * a fragment is a cache, and a batch without one is converted when its day is reconciled.
 */
export class ReportFragmentStager {
  constructor(private readonly deps: ReportFragmentStagerDependencies) {}

  /** Stages the batch's fragment; `replace` converts it again even when one is staged already. */
  async stage(partnerId: string, batchId: string, options: { readonly replace?: boolean } = {}): Promise<StageOutcome> {
    try {
      const entry = await this.deps.ledger.get(partnerId, batchId);
      if (entry?.state !== 'COMMITTED' || entry.kind !== 'tradeRecords') return 'not a committed trade-record batch';
      if (!options.replace && (await this.deps.fragments.exists(partnerId, batchId))) return 'already staged';
      const [body, mapping, directions, module, footer] = await Promise.all([
        this.deps.rawBatches.get(partnerId, batchId),
        this.deps.mappings.current(partnerId),
        this.deps.paymentDirections.listForPartner(partnerId),
        loadParquetWriter(),
        loadParquetFooterEncoder(),
      ]);
      if (!body) return 'not a committed trade-record batch';
      const { fragment } = buildReportFragment(
        module,
        {
          partnerId,
          mapping: mapping.byCode,
          paymentDirections: directions,
          ...(this.deps.rowGroupRows === undefined ? {} : { rowGroupRows: this.deps.rowGroupRows }),
        },
        body,
      );
      await this.deps.fragments.put(partnerId, batchId, encodeFragment(fragment, footer));
      return 'staged';
    } catch (error) {
      return classifyReportError(error);
    }
  }
}
