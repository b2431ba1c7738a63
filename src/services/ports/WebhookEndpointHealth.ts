import type { EndpointHealth } from '../../storage/WebhookEndpointHealthRepository.js';

/**
 * How each partner's endpoint has been doing: none means healthy; a failing one is paused, and
 * when the pause ends one event claims the probe for all of them.
 */
export interface WebhookEndpointHealth {
  get(partnerId: string): Promise<EndpointHealth | undefined>;
  /** Pauses the endpoint until `until` if its health is still as `seen`; false when another event took the probe first. */
  claimProbe(partnerId: string, seen: EndpointHealth, until: Date): Promise<boolean>;
  /** Counts one more failure in a row, concurrent ones included, and pauses until `pausedUntil`. Returns the count. */
  recordFailure(partnerId: string, errorClass: string, pausedUntil: Date): Promise<number>;
  /** Healthy again. */
  reset(partnerId: string): Promise<void>;
}
