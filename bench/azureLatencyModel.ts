/**
 * Delay added to one storage request in the Azure-shaped profile, from published Azure Storage
 * figures (sources and reasoning in bench/README.md, "Azure-shaped profile"):
 *
 * - Table Storage publishes no latency bound ("fast, but no upper bounds on latency"); the
 *   Table API of Cosmos DB, same protocol, is backed by < 10 ms reads and < 15 ms writes at the
 *   99th percentile. Medians are taken below those bounds: 5 ms a read, 8 ms a write, 12 ms an
 *   entity-group transaction (one request, up to 100 writes, one partition).
 * - Transfer: a single blob's throughput target is 60 MB/s; every request and response body is
 *   charged at that rate on top of the fixed part (a 2.4 MB blob put: 10 + 40 ms).
 * - Queue operations are charged as table point operations (5 ms).
 */
export interface StorageRequestShape {
  readonly service: 'table' | 'blob' | 'queue' | 'other';
  readonly method: string;
  /** Path below the account, e.g. `trades(PartitionKey='a',RowKey='b')`, `$batch`, `raw-batches/x.json`. */
  readonly resource: string;
  readonly hasFilter: boolean;
  readonly requestBytes: number;
  readonly responseBytes: number;
}

const azureLatencyFigures = {
  tableReadMs: 5,
  tableWriteMs: 8,
  tableTransactionMs: 12,
  blobPutMs: 10,
  blobReadMs: 5,
  queueMs: 5,
  bytesPerMs: 60_000, // 60 MB/s
} as const;

export function azureDelayMs(request: StorageRequestShape): number {
  const f = azureLatencyFigures;
  const transfer = (request.requestBytes + request.responseBytes) / f.bytesPerMs;
  const method = request.method.toUpperCase();
  const read = method === 'GET' || method === 'HEAD';
  let fixed: number;
  switch (request.service) {
    case 'table':
      fixed = request.resource.startsWith('$batch') ? f.tableTransactionMs : read ? f.tableReadMs : f.tableWriteMs;
      break;
    case 'blob':
      fixed = read ? f.blobReadMs : f.blobPutMs;
      break;
    default:
      fixed = f.queueMs;
  }
  return fixed + transfer;
}
