import type { PipelinePolicy } from '@azure/core-rest-pipeline';

export interface StoragePorts {
  readonly blobPort: number;
  readonly queuePort: number;
  readonly tablePort: number;
}

/**
 * Counts the storage operations the service sends, labelled with service, method and resource so a
 * reader sees where each comes from: `table GET keys(point)`, `table POST $batch`, `blob PUT
 * raw-batches`, `table POST pendingbatches`. An operation the SDK tries again (a slow answer on a
 * busy machine) is one operation: its tries share the pipeline request and so its id. The tries
 * beyond the first are counted apart, as retries.
 */
export class RequestCounter {
  private operations = new Map<string, Set<string>>();
  private retryCount = 0;

  constructor(private readonly ports: StoragePorts) {}

  readonly policy: PipelinePolicy = {
    name: 'benchRequestCounter',
    sendRequest: (request, next) => {
      const label = this.label(request.method, request.url);
      const ids = this.operations.get(label) ?? new Set<string>();
      if (ids.has(request.requestId)) this.retryCount += 1;
      ids.add(request.requestId);
      this.operations.set(label, ids);
      return next(request);
    },
  };

  reset(): void {
    this.operations = new Map();
    this.retryCount = 0;
  }

  /** Operations per label since the last reset, each counted once however often it was tried. */
  snapshot(): Map<string, number> {
    return new Map([...this.operations].map(([label, ids]) => [label, ids.size]));
  }

  /** Tries beyond the first of the operations since the last reset. */
  retries(): number {
    return this.retryCount;
  }

  private label(method: string, url: string): string {
    const parsed = new URL(url);
    const port = Number(parsed.port);
    const service =
      port === this.ports.tablePort ? 'table' : port === this.ports.blobPort ? 'blob' : port === this.ports.queuePort ? 'queue' : 'other';
    // Path: /<account>/<resource>...
    const parts = decodeURIComponent(parsed.pathname).split('/').filter(Boolean).slice(1);
    const first = parts[0] ?? '';
    if (service === 'table') {
      if (first === '$batch') return `table ${method} $batch (transaction)`;
      const match = /^([^(]+)\((.*)\)$/.exec(first);
      if (match) {
        const keyed = (match[2] ?? '').length > 0;
        return `table ${method} ${match[1]}${keyed ? '(point)' : parsed.searchParams.has('$filter') ? '(query)' : '()'}`;
      }
      return `table ${method} ${first}${parsed.searchParams.has('$filter') ? '(query)' : ''}`;
    }
    if (service === 'blob') return `blob ${method} ${first}${parts.length > 1 ? '/<blob>' : ''}`;
    if (service === 'queue') return `queue ${method} ${parts.join('/')}`;
    return `${service} ${method} ${parsed.pathname}`;
  }
}

/** Which labels are the queue poller's own receive calls, which run whether or not a push happens. */
export function isPollerReceive(label: string): boolean {
  return label.startsWith('queue GET ') && label.endsWith('/messages');
}
