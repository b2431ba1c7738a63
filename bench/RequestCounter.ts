import type { PipelinePolicy } from '@azure/core-rest-pipeline';

export interface StoragePorts {
  readonly blobPort: number;
  readonly queuePort: number;
  readonly tablePort: number;
}

/**
 * Counts every storage request the service sends (each try, retries included), labelled with
 * service, method and resource so a reader sees where each operation comes from:
 * `table GET keys(point)`, `table POST $batch`, `blob PUT raw-batches`, `table POST pendingbatches`.
 */
export class RequestCounter {
  private counts = new Map<string, number>();

  constructor(private readonly ports: StoragePorts) {}

  readonly policy: PipelinePolicy = {
    name: 'benchRequestCounter',
    sendRequest: (request, next) => {
      const label = this.label(request.method, request.url);
      this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
      return next(request);
    },
  };

  reset(): void {
    this.counts = new Map();
  }

  snapshot(): Map<string, number> {
    return new Map(this.counts);
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
