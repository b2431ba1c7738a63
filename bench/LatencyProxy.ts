import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { azureDelayMs, type StorageRequestShape } from './azureLatencyModel.js';
import { tableOfRequest } from './tableOfRequest.js';

export interface ProxyTargets {
  readonly blobPort: number;
  readonly queuePort: number;
  readonly tablePort: number;
}

/** Tables served by an emulator of their own (its table port), as Azure serves them apart. */
export interface TablesApart {
  readonly tables: ReadonlySet<string>;
  readonly tablePort: number;
}

/** One storage request as the proxy saw it: arrival of its first byte to the end of its answer. */
interface LoggedRequest {
  readonly label: string;
  readonly start: number;
  readonly end: number;
}

export interface RoundTripChain {
  /** Longest chain of requests each of which started after the previous one ended. */
  readonly length: number;
  /** That chain's requests, in order, each with when it started and ended (ms from the reset). */
  readonly labels: readonly string[];
  /** Requests finished since the last reset (poller receives left out). */
  readonly requests: number;
}

/**
 * A proxy in front of the storage emulator's three ports: forwards each request, then holds the
 * answer back for the delay the Azure-shaped model gives it ({@link azureDelayMs}), and logs
 * when each request arrived and was answered, so the benchmark can tell how many round trips an
 * operation waited on one after another. Requests naming one of the tables served apart
 * ({@link TablesApart}) go to that emulator's table port instead.
 */
/** How long storage must have been quiet before a count starts (the poller's receives aside). */
const defaultQuietMs = 300;

export class LatencyProxy {
  private log: LoggedRequest[] = [];
  private since = 0;
  /** Requests forwarded and not yet answered (poller receives left out), and when the last one ended. */
  private inFlight = 0;
  private lastEnd = 0;
  private readonly servers: http.Server[] = [];
  /**
   * The emulator closes a connection idle for 5 s. A connection reused just as it closes fails the
   * request (answered 502 here), so idle connections are dropped after 4 s (the agent's `timeout`
   * closes only free sockets; a request under way is not cut short).
   */
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 256, timeout: 4_000 });

  /** Requests sent to the tables served apart (see {@link TablesApart}). */
  private apartRequests = 0;

  constructor(
    private readonly delay: (request: StorageRequestShape) => number = azureDelayMs,
    private readonly apart?: TablesApart,
  ) {}

  /** How many requests went to the emulator of the tables served apart. */
  get requestsApart(): number {
    return this.apartRequests;
  }

  /** Starts one listener per service; resolves with the ports to use instead of the emulator's. */
  async start(targets: ProxyTargets): Promise<ProxyTargets> {
    const listen = async (service: StorageRequestShape['service'], port: number): Promise<number> => {
      const server = http.createServer((req, res) => {
        this.forward(service, port, req, res);
      });
      server.keepAliveTimeout = 30_000;
      this.servers.push(server);
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return (server.address() as AddressInfo).port;
    };
    return {
      blobPort: await listen('blob', targets.blobPort),
      queuePort: await listen('queue', targets.queuePort),
      tablePort: await listen('table', targets.tablePort),
    };
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.servers.map(
        (server) =>
          new Promise<void>((resolve) => {
            server.closeAllConnections();
            server.close(() => {
              resolve();
            });
          }),
      ),
    );
    this.agent.destroy();
  }

  /** Starts a new count: requests already under way are left out of it. */
  reset(): void {
    this.log = [];
    this.since = performance.now();
  }

  /**
   * Resolves once no storage request (poller receives left out) has been under way for `quietMs`:
   * what the previous operation left running after its answer (a pending-row removal, the report
   * files a reconciliation writes after its result) must not fall into the next count.
   */
  async idle(quietMs = defaultQuietMs, timeoutMs = 60_000): Promise<void> {
    const deadline = performance.now() + timeoutMs;
    while (this.inFlight > 0 || performance.now() - this.lastEnd < quietMs) {
      if (performance.now() > deadline) throw new Error(`storage requests kept running for ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** The longest chain of sequential round trips among the requests answered since the last reset. */
  chain(): RoundTripChain {
    const entries = this.log.filter((e) => e.start >= this.since && !isPollerReceive(e.label)).sort((a, b) => a.start - b.start);
    const best: number[] = [];
    const previous: number[] = [];
    let top = -1;
    for (const [i, entry] of entries.entries()) {
      best[i] = 1;
      previous[i] = -1;
      for (let j = 0; j < i; j++) {
        const before = entries[j];
        if (before && before.end <= entry.start && (best[j] ?? 0) + 1 > (best[i] ?? 0)) {
          best[i] = (best[j] ?? 0) + 1;
          previous[i] = j;
        }
      }
      if (top < 0 || (best[i] ?? 0) > (best[top] ?? 0)) top = i;
    }
    const labels: string[] = [];
    for (let i = top; i >= 0; i = previous[i] ?? -1) {
      const entry = entries[i];
      if (entry) labels.unshift(`${entry.label}  (${Math.round(entry.start - this.since)}–${Math.round(entry.end - this.since)} ms)`);
    }
    return { length: labels.length, labels, requests: entries.length };
  }

  private forward(service: StorageRequestShape['service'], port: number, req: http.IncomingMessage, res: http.ServerResponse): void {
    const start = performance.now();
    const counted = !isPollerReceive(labelOf(describe(service, req.method ?? 'GET', req.url ?? '/', 0, 0)));
    if (counted) this.inFlight += 1;
    let finished = false;
    const done = (): void => {
      if (!counted || finished) return;
      finished = true;
      this.inFlight -= 1;
      this.lastEnd = performance.now();
    };
    // A caller that goes away first (a process that exits with a request under way) never reads
    // the answer: the request is over then too, or `idle` would wait for it for ever.
    res.once('close', done);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: service === 'table' ? this.tablePortFor(req.method ?? 'GET', req.url ?? '/', body, port) : port,
          method: req.method,
          path: req.url,
          headers: req.headers,
          agent: this.agent,
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const payload = Buffer.concat(parts);
            const shape = describe(service, req.method ?? 'GET', req.url ?? '/', body.length, payload.length);
            setTimeout(() => {
              res.writeHead(answer.statusCode ?? 502, answer.headers);
              res.end(payload, () => {
                this.log.push({ label: labelOf(shape), start, end: performance.now() });
                done();
              });
            }, this.delay(shape));
          });
        },
      );
      upstream.on('error', () => {
        done();
        if (!res.headersSent) res.writeHead(502);
        res.end();
      });
      upstream.end(body);
    });
  }

  private tablePortFor(method: string, url: string, body: Buffer, port: number): number {
    const table = this.apart && tableOfRequest(method, url, body);
    if (!this.apart || table === undefined || !this.apart.tables.has(table)) return port;
    this.apartRequests += 1;
    return this.apart.tablePort;
  }
}

function describe(service: StorageRequestShape['service'], method: string, url: string, requestBytes: number, responseBytes: number) {
  const parsed = new URL(url, 'http://proxy');
  // Path: /<account>/<resource>...
  const resource = decodeURIComponent(parsed.pathname).split('/').filter(Boolean).slice(1).join('/');
  return { service, method, resource, hasFilter: parsed.searchParams.has('$filter'), requestBytes, responseBytes };
}

function labelOf(shape: StorageRequestShape): string {
  const [first = ''] = shape.resource.split('/');
  if (shape.service === 'table') {
    if (first === '$batch') return 'table $batch';
    const match = /^([^(]+)\((.*)\)$/.exec(first);
    const name = match ? match[1] : first;
    const kind = match && (match[2] ?? '').length > 0 ? '(point)' : shape.hasFilter ? '(query)' : '';
    return `table ${shape.method} ${name}${kind}`;
  }
  if (shape.service === 'blob') return `blob ${shape.method} ${first}`;
  return `${shape.service} ${shape.method} ${shape.resource}`;
}

/** The queue poller's own receive calls, which run whether or not an operation is measured. */
function isPollerReceive(label: string): boolean {
  return label.startsWith('queue GET ') && label.endsWith('/messages');
}
