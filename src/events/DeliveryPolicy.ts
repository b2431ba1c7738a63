/** How webhooks are delivered: attempt time, retry schedule and its end. */
export interface DeliveryPolicy {
  /** One attempt, from resolving the host to the response's status line. */
  readonly attemptTimeoutMs: number;
  /** Retries stop this long after the event was created; the event is then dead-lettered. */
  readonly maxAgeSeconds: number;
  /** Delay after the first failure; each further failure doubles it... */
  readonly firstRetrySeconds: number;
  /** ...up to this. */
  readonly maxRetrySeconds: number;
  /** Each delay is spread by ± this fraction, so failures of many events do not retry in step. */
  readonly jitter: number;
  /** Events held back while an endpoint is paused wake up spread over this many seconds. */
  readonly pauseSpreadSeconds: number;
  /**
   * Attempts one process makes to one partner's endpoint at once. A further event of that partner
   * goes back to the queue for `busyRetrySeconds` instead of taking a slot of the host's batch,
   * so one partner's slow endpoint never holds more than this many of the slots other partners'
   * events run in (host.json: up to 48 messages of the queue at once).
   */
  readonly partnerConcurrency: number;
  /** The first wait of an event whose endpoint is busy; each further return doubles it... */
  readonly busyRetrySeconds: number;
  /**
   * ...up to this: a backlog of thousands of events for one slow endpoint comes back ever less
   * often, rather than every few seconds, each return costing reads and a queue message.
   */
  readonly maxBusyRetrySeconds: number;
}

/**
 * The service's schedule: 10 s per attempt; retries after about 10 s, 20 s, 40 s, ... doubling up
 * to 2 hours apart, for 24 hours after the event (about 20 attempts), the last one at the 24-hour
 * mark; then the event is dead-lettered for HQ.
 */
export const deliveryPolicy: DeliveryPolicy = Object.freeze({
  attemptTimeoutMs: 10_000,
  maxAgeSeconds: 24 * 60 * 60,
  firstRetrySeconds: 10,
  maxRetrySeconds: 2 * 60 * 60,
  jitter: 0.25,
  pauseSpreadSeconds: 30,
  partnerConcurrency: 4,
  busyRetrySeconds: 5,
  maxBusyRetrySeconds: 5 * 60,
});
