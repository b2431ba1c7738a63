/**
 * How long the front end waits for a client. Azure's front end is Kestrel behind a load balancer:
 * 30 s for the request headers (Kestrel's RequestHeadersTimeout), at least 240 bytes/s of body after
 * a 5 s grace (Kestrel's MinRequestBodyDataRate), 230 s for a whole HTTP-triggered request (the
 * load balancer's idle limit), 5 s to drain a body the function did not read, and 130 s before an
 * idle kept-alive connection is closed (Kestrel's KeepAliveTimeout; Node's own is 5 s, and a client
 * that reuses a connection just as the server closes it sees a reset, which Azure's clients do not).
 */
export interface HostTimeouts {
  readonly headersMs: number;
  readonly minBodyBytesPerSecond: number;
  readonly bodyGraceMs: number;
  /**
   * The whole request, its answer included: a function still running then is answered 500 however
   * long functionTimeout is (Azure documents 230 s as the most an HTTP-triggered function can take
   * to answer), and it runs on.
   */
  readonly requestMs: number;
  readonly drainMs: number;
  /** Most body bytes discarded while draining before the connection is cut. */
  readonly drainBytes: number;
  /** host.json `functionTimeout`: an invocation still running then is answered 500 by the host. */
  readonly functionMs: number;
  readonly keepAliveMs: number;
}

export const defaultHostTimeouts: HostTimeouts = Object.freeze({
  headersMs: 30_000,
  minBodyBytesPerSecond: 240,
  bodyGraceMs: 5_000,
  requestMs: 230_000,
  drainMs: 5_000,
  drainBytes: 64 * 1024 * 1024,
  functionMs: 30 * 60_000,
  keepAliveMs: 130_000,
});
