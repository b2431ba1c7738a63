import type { TableClient } from '@azure/data-tables';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';
import { encodeKeyPart } from './tableKey.js';

/**
 * How a partner's endpoint has been doing. No row means healthy. While `pausedUntil` lies ahead,
 * that partner's events wait in the queue instead of each spending an attempt on an endpoint that
 * is failing; when it has passed, one event probes the endpoint for all of them.
 */
export interface EndpointHealth {
  readonly consecutiveFailures: number;
  readonly pausedUntil: string;
  readonly lastErrorClass: string;
  readonly etag: string;
}

interface HealthEntity {
  partitionKey: string;
  rowKey: string;
  consecutiveFailures: number;
  pausedUntil: string;
  lastErrorClass: string;
}

/** Row of an endpoint's health, next to the endpoint's own row in the webhooks table. */
const healthRow = 'health';

export class WebhookEndpointHealthRepository {
  constructor(private readonly table: TableClient) {}

  async get(partnerId: string): Promise<EndpointHealth | undefined> {
    try {
      const entity = await this.table.getEntity<HealthEntity>(encodeKeyPart(partnerId), healthRow);
      return {
        consecutiveFailures: entity.consecutiveFailures,
        pausedUntil: entity.pausedUntil,
        lastErrorClass: entity.lastErrorClass,
        etag: entity.etag,
      };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /**
   * Takes the probe of a failing endpoint: pauses it until `until` (the probe's own attempt time)
   * if the row is still as `seen`. False when another event took it first.
   */
  async claimProbe(partnerId: string, seen: EndpointHealth, until: Date): Promise<boolean> {
    try {
      await this.table.updateEntity(
        { partitionKey: encodeKeyPart(partnerId), rowKey: healthRow, pausedUntil: until.toISOString() },
        'Merge',
        { etag: seen.etag },
      );
      return true;
    } catch (error) {
      if (isPreconditionFailed(error) || isNotFound(error)) return false;
      throw error;
    }
  }

  /** Counts one more failure in a row and pauses the endpoint until `pausedUntil`. Returns the count. */
  async recordFailure(partnerId: string, errorClass: string, pausedUntil: Date): Promise<number> {
    const partitionKey = encodeKeyPart(partnerId);
    for (;;) {
      const current = await this.get(partnerId);
      const failures = (current?.consecutiveFailures ?? 0) + 1;
      const entity: HealthEntity = {
        partitionKey,
        rowKey: healthRow,
        consecutiveFailures: failures,
        pausedUntil: pausedUntil.toISOString(),
        lastErrorClass: errorClass,
      };
      try {
        if (current) await this.table.updateEntity(entity, 'Replace', { etag: current.etag });
        else await this.table.createEntity(entity);
        return failures;
      } catch (error) {
        if (!isConflict(error) && !isPreconditionFailed(error) && !isNotFound(error)) throw error;
      }
    }
  }

  /** The endpoint answered: healthy again (the row goes). Also used when the partner changes the endpoint. */
  async reset(partnerId: string): Promise<void> {
    try {
      await this.table.deleteEntity(encodeKeyPart(partnerId), healthRow);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
}
