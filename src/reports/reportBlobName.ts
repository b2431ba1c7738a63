import { encodePartitionValue, encodePartitionValueCompactly } from './encodePartitionValue.js';
import { ReportDataError } from './ReportDataError.js';
import type { PartnerDataset, ReportDataset, StoreDayDataset } from './reportDatasets.js';

/** Longest blob name the storage service accepts. */
const maxBlobNameLength = 1024;

/** The one file of each partition: a store-day's dataset is always rewritten whole. */
const fileName = 'part-0.parquet';

/**
 * `<dataset>/partner_id=<p>/business_date=<YYYY-MM-DD>/store_id=<s>/part-0.parquet`, with the ids
 * encoded by {@link encodePartitionValue}. The partner is always the first partition level, so one
 * partner's files are found under one prefix and never under another's.
 */
export function storeDayBlobName(dataset: StoreDayDataset, partnerId: string, businessDate: string, storeId: string): string {
  return withStoreId(`${partnerPrefix(dataset, partnerId)}${datePart(businessDate)}store_id=`, storeId, `/${fileName}`);
}

/** The name of the blob whose lease orders the writers of one store-day's files. */
export function storeDayMarkerName(partnerId: string, businessDate: string, storeId: string): string {
  return withStoreId(`_state/store_day/partner_id=${encodePartitionValue(partnerId)}/${datePart(businessDate)}store_id=`, storeId, '');
}

/** `store_days/partner_id=<p>/business_date=<YYYY-MM-DD>/part-0.parquet`: every store of the partner's day. */
export function storeDaysBlobName(partnerId: string, businessDate: string): string {
  return checked(`${partnerPrefix('store_days', partnerId)}${datePart(businessDate)}${fileName}`);
}

/** `<dataset>/partner_id=<p>/part-0.parquet`: one of the partner's master-data files (reportDatasets' partnerDatasets). */
export function partnerFileBlobName(dataset: PartnerDataset, partnerId: string): string {
  return checked(`${partnerPrefix(dataset, partnerId)}${fileName}`);
}

/** The prefix under which every file of one partner in one dataset lies (ends with `/`). */
export function partnerPrefix(dataset: ReportDataset, partnerId: string): string {
  return `${dataset}/partner_id=${encodePartitionValue(partnerId)}/`;
}

function datePart(businessDate: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(businessDate)) throw new ReportDataError('business_date is not a YYYY-MM-DD date');
  return `business_date=${businessDate}/`;
}

/**
 * `before` + the encoded store id + `after`. A store id whose usual encoding would make the name
 * longer than a blob name may be is encoded compactly: such a name was never written before, and
 * both encodings decode to the same id, so readers see one store either way.
 */
function withStoreId(before: string, storeId: string, after: string): string {
  const usual = `${before}${encodePartitionValue(storeId)}${after}`;
  return usual.length <= maxBlobNameLength ? usual : checked(`${before}${encodePartitionValueCompactly(storeId)}${after}`);
}

function checked(name: string): string {
  if (name.length > maxBlobNameLength) {
    throw new ReportDataError(
      `the report path of this store-day is ${name.length} characters long, over the ${maxBlobNameLength} a blob name may have`,
    );
  }
  return name;
}
