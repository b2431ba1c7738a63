/**
 * Why one delivery attempt failed, in classes HQ can read in the dead-letter list and alert on.
 * Nothing from the receiver's response body is kept.
 */
export type DeliveryErrorClass =
  /** No response headers within the attempt's time (10 s), connection and resolution included. */
  | 'TIMEOUT'
  /** Connection refused, reset or unreachable. */
  | 'NETWORK'
  /** The TLS handshake failed (certificate not trusted, expired, for another name). */
  | 'TLS'
  /** The host name did not resolve. */
  | 'DNS'
  /** The host resolved to an address the service does not send to (private, loopback, ...). */
  | 'TARGET_REFUSED'
  /** A 3xx answer: redirects are never followed; the partner should register the final URL. */
  | 'REDIRECT'
  /** 410 Gone: the receiver says it wants no more deliveries; the event is not retried. */
  | 'GONE'
  /** Any other status outside 2xx. */
  | 'HTTP_ERROR'
  /**
   * Not the endpoint's failure: this process's host-name lookups all stayed taken, so the name was
   * not looked up and nothing was sent. Not counted as an attempt; the event goes back to the queue.
   */
  | 'LOOKUPS_BUSY';

interface DeliveryFailure {
  readonly errorClass: DeliveryErrorClass;
  /** HTTP status of the answer, when there was one. */
  readonly status?: number;
  /** The receiver's Retry-After, in seconds, when it sent one. */
  readonly retryAfterSeconds?: number;
}

export type AttemptOutcome = { readonly ok: true; readonly status: number } | ({ readonly ok: false } & DeliveryFailure);
