import { generateTradeRecordBatch } from './tradeRecordGenerator.js';

/** Eight characters that appear nowhere in a generated body but where a batch's tag goes. */
const tagPlaceholder = 'QQQQQQQQ';

/**
 * A serialized batch whose batch_id and trade_record_ids carry an 8-hex-digit tag. `render(n)`
 * copies the bytes and writes the tag for `n`, so a load test produces distinct batches
 * (new batch_id, new trade_record_ids, identical size) without generating JSON while it measures.
 */
export class BatchTemplate {
  private readonly bytes: Buffer;
  private readonly offsets: number[] = [];
  readonly recordCount: number;

  constructor(options: { storeId: string; businessDate: string; recordCount: number; seed: number; batchSeq?: number }) {
    const body = generateTradeRecordBatch({
      batchId: `${tagPlaceholder}-0000-4000-8000-000000000000`,
      storeId: options.storeId,
      businessDate: options.businessDate,
      batchSeq: options.batchSeq ?? 1,
      recordCount: options.recordCount,
      idPrefix: `T-${tagPlaceholder}`,
      seed: options.seed,
    });
    this.recordCount = options.recordCount;
    this.bytes = Buffer.from(JSON.stringify(body), 'utf8');
    for (let at = this.bytes.indexOf(tagPlaceholder); at >= 0; at = this.bytes.indexOf(tagPlaceholder, at + tagPlaceholder.length)) {
      this.offsets.push(at);
    }
  }

  get size(): number {
    return this.bytes.length;
  }

  /** The body with tag `n` (0 ≤ n < 2³²): batch_id `<tag>-0000-4000-8000-000000000000`. */
  render(n: number): Buffer {
    const copy = Buffer.from(this.bytes);
    const tag = (n >>> 0).toString(16).padStart(8, '0');
    for (const at of this.offsets) copy.write(tag, at, 'latin1');
    return copy;
  }

  static batchIdFor(n: number): string {
    return `${(n >>> 0).toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
  }
}
