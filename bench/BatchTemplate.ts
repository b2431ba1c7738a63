import { generateTradeRecordBatch } from './tradeRecordGenerator.js';

/** Eight characters that appear nowhere in a generated body but where a batch's tag goes. */
const tagPlaceholder = 'QQQQQQQQ';

/** A business date as the template writes it: ten characters, so it fits where the old one was. */
function requireDate(businessDate: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(businessDate)) throw new Error(`business date must be YYYY-MM-DD, not "${businessDate}"`);
  return businessDate;
}

/**
 * A serialized batch whose batch_id and trade_record_ids carry an 8-hex-digit tag. `render(n)`
 * copies the bytes and writes the tag for `n`, so a load test produces distinct batches
 * (new batch_id, new trade_record_ids, identical size) without generating JSON while it measures.
 * `render(n, businessDate)` also moves the batch to another business date: its business_date and
 * every timestamp (all written on the business date) name the new date.
 */
export class BatchTemplate {
  private readonly bytes: Buffer;
  private readonly tagOffsets: number[];
  private readonly dateOffsets: number[];
  readonly recordCount: number;

  constructor(options: { storeId: string; businessDate: string; recordCount: number; seed: number; batchSeq?: number }) {
    const body = generateTradeRecordBatch({
      batchId: `${tagPlaceholder}-0000-4000-8000-000000000000`,
      storeId: options.storeId,
      businessDate: requireDate(options.businessDate),
      batchSeq: options.batchSeq ?? 1,
      recordCount: options.recordCount,
      idPrefix: `T-${tagPlaceholder}`,
      seed: options.seed,
    });
    this.recordCount = options.recordCount;
    this.bytes = Buffer.from(JSON.stringify(body), 'utf8');
    this.tagOffsets = offsetsOf(this.bytes, tagPlaceholder);
    this.dateOffsets = offsetsOf(this.bytes, options.businessDate);
  }

  get size(): number {
    return this.bytes.length;
  }

  /** The body with tag `n` (0 ≤ n < 2³²): batch_id `<tag>-0000-4000-8000-000000000000`; on `businessDate` when given. */
  render(n: number, businessDate?: string): Buffer {
    const copy = Buffer.from(this.bytes);
    const tag = (n >>> 0).toString(16).padStart(8, '0');
    for (const at of this.tagOffsets) copy.write(tag, at, 'latin1');
    if (businessDate !== undefined) {
      const date = requireDate(businessDate);
      for (const at of this.dateOffsets) copy.write(date, at, 'latin1');
    }
    return copy;
  }

  static batchIdFor(n: number): string {
    return `${(n >>> 0).toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
  }
}

function offsetsOf(bytes: Buffer, text: string): number[] {
  const offsets: number[] = [];
  for (let at = bytes.indexOf(text); at >= 0; at = bytes.indexOf(text, at + text.length)) offsets.push(at);
  return offsets;
}
