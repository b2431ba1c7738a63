import type { WebhookEndpointHealth } from '../../../src/services/ports/WebhookEndpointHealth.js';
import type { EndpointHealth } from '../../../src/storage/WebhookEndpointHealthRepository.js';

/** Endpoint health in a map, for unit tests of services; the ETag is a version number. */
export class InMemoryWebhookEndpointHealth implements WebhookEndpointHealth {
  private readonly byPartner = new Map<string, EndpointHealth>();
  private version = 0;

  get(partnerId: string): Promise<EndpointHealth | undefined> {
    return Promise.resolve(this.byPartner.get(partnerId));
  }

  claimProbe(partnerId: string, seen: EndpointHealth, until: Date): Promise<boolean> {
    const current = this.byPartner.get(partnerId);
    if (current?.etag !== seen.etag) return Promise.resolve(false);
    this.byPartner.set(partnerId, { ...current, pausedUntil: until.toISOString(), etag: this.#nextEtag() });
    return Promise.resolve(true);
  }

  recordFailure(partnerId: string, errorClass: string, pausedUntil: Date): Promise<number> {
    const failures = (this.byPartner.get(partnerId)?.consecutiveFailures ?? 0) + 1;
    this.byPartner.set(partnerId, {
      consecutiveFailures: failures,
      pausedUntil: pausedUntil.toISOString(),
      lastErrorClass: errorClass,
      etag: this.#nextEtag(),
    });
    return Promise.resolve(failures);
  }

  reset(partnerId: string): Promise<void> {
    this.byPartner.delete(partnerId);
    return Promise.resolve();
  }

  #nextEtag(): string {
    this.version += 1;
    return `v${this.version}`;
  }
}
