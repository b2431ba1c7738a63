import { randomUUID } from 'node:crypto';
import { odata, type TableClient } from '@azure/data-tables';
import { isEventType, type EventType } from '../events/eventTypes.js';
import type { WebhookEndpoint, WebhookRegistration } from '../events/WebhookRegistration.js';
import { WebhookSecret } from '../events/WebhookSecret.js';
import { isConflict, isNotFound, isPreconditionFailed } from './storageErrors.js';
import { decodeKeyPart, encodeKeyPart } from './tableKey.js';

interface EndpointEntity {
  partitionKey: string;
  rowKey: string;
  url: string;
  /** JSON array of event type names. */
  eventTypes: string;
  /** `whsec_...`: kept because every attempt is signed with it. Never logged, never answered twice. */
  secret: string;
  previousSecret?: string;
  previousSecretExpiresAt?: string;
  createdAt: string;
  updatedAt: string;
  /** When the endpoint answered 410 Gone; empty once registered again (a merge cannot remove a property). */
  disabledAt?: string;
  /** A random id per registration; absent in rows written before it existed, whose generation is their `createdAt`. */
  generation?: string;
}

/** Row of a partner's endpoint in the webhooks table; the endpoint's health is another row there. */
const endpointRow = 'endpoint';

/**
 * One webhook endpoint per partner (partition = partner). A replace keeps the secrets; a rotation
 * keeps the old secret for an overlap. Secrets come back as `WebhookSecret`, which never prints.
 */
export class WebhookRegistrationRepository {
  constructor(private readonly table: TableClient) {}

  async get(partnerId: string): Promise<WebhookRegistration | undefined> {
    const entity = await this.#read(partnerId);
    return entity && toRegistration(entity);
  }

  /** Registers a first endpoint with its secret; false when the partner already has one. */
  async create(partnerId: string, endpoint: WebhookEndpoint, secret: WebhookSecret, now: Date): Promise<boolean> {
    const at = now.toISOString();
    try {
      await this.table.createEntity<EndpointEntity>({
        partitionKey: encodeKeyPart(partnerId),
        rowKey: endpointRow,
        url: endpoint.url,
        eventTypes: JSON.stringify(endpoint.eventTypes),
        secret: secret.reveal(),
        createdAt: at,
        updatedAt: at,
        generation: randomUUID(),
      });
      return true;
    } catch (error) {
      if (isConflict(error)) return false;
      throw error;
    }
  }

  /**
   * Replaces URL and event types, keeping the secrets; false when the partner has no endpoint.
   * Enabling an endpoint disabled by a 410 Gone starts a new generation. Guarded by the row's ETag,
   * so a 410 recorded between the read and the write is not enabled under the old generation.
   */
  async replaceEndpoint(partnerId: string, endpoint: WebhookEndpoint, now: Date): Promise<boolean> {
    return this.#mergeIntoCurrent(partnerId, (current) => ({
      url: endpoint.url,
      eventTypes: JSON.stringify(endpoint.eventTypes),
      updatedAt: now.toISOString(),
      disabledAt: '',
      ...(current.disabledAt ? { generation: randomUUID() } : {}),
    }));
  }

  /**
   * Disables the endpoint after it answered 410 Gone, when it is still the registration the attempt
   * was made with and enabled. Guarded by the row's ETag, so a registration anew or a rotation
   * between the read and the write leaves it as it is.
   */
  async disable(partnerId: string, attemptedUpdatedAt: string, now: Date): Promise<boolean> {
    const current = await this.#read(partnerId);
    if (current?.updatedAt !== attemptedUpdatedAt || current.disabledAt) return false;
    try {
      await this.table.updateEntity({ partitionKey: current.partitionKey, rowKey: endpointRow, disabledAt: now.toISOString() }, 'Merge', {
        etag: current.etag,
      });
      return true;
    } catch (error) {
      if (isPreconditionFailed(error) || isNotFound(error)) return false;
      throw error;
    }
  }

  /**
   * Makes `next` the signing secret; the current one keeps signing until `now + overlapSeconds`.
   * A previous secret still in its overlap is dropped: only the latest two ever sign. Guarded by
   * the row's ETag, so two rotations at once cannot both think theirs is current.
   * False when the partner has no endpoint.
   */
  async rotateSecret(partnerId: string, next: WebhookSecret, now: Date, overlapSeconds: number): Promise<boolean> {
    return this.#mergeIntoCurrent(partnerId, (current) => ({
      secret: next.reveal(),
      previousSecret: current.secret,
      previousSecretExpiresAt: new Date(now.getTime() + overlapSeconds * 1000).toISOString(),
      updatedAt: now.toISOString(),
    }));
  }

  /** Removes the endpoint; false when there was none. */
  async remove(partnerId: string): Promise<boolean> {
    try {
      await this.table.deleteEntity(encodeKeyPart(partnerId), endpointRow);
      return true;
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
  }

  /** Every partner's endpoint (HQ tool; one row per partner). */
  async list(): Promise<WebhookRegistration[]> {
    const registrations: WebhookRegistration[] = [];
    for await (const entity of this.table.listEntities<EndpointEntity>({ queryOptions: { filter: odata`RowKey eq ${endpointRow}` } })) {
      registrations.push(toRegistration(entity));
    }
    return registrations.sort((a, b) => a.partnerId.localeCompare(b.partnerId));
  }

  /**
   * Merges what `change` makes of the row as read, under its ETag, reading again whenever the row
   * changed in between; false when the partner has no endpoint.
   */
  async #mergeIntoCurrent(partnerId: string, change: (current: EndpointEntity) => Partial<EndpointEntity>): Promise<boolean> {
    for (;;) {
      const current = await this.#read(partnerId);
      if (!current) return false;
      try {
        await this.table.updateEntity({ ...change(current), partitionKey: current.partitionKey, rowKey: endpointRow }, 'Merge', {
          etag: current.etag,
        });
        return true;
      } catch (error) {
        if (!isPreconditionFailed(error) && !isNotFound(error)) throw error;
      }
    }
  }

  async #read(partnerId: string): Promise<(EndpointEntity & { etag: string }) | undefined> {
    try {
      return await this.table.getEntity<EndpointEntity>(encodeKeyPart(partnerId), endpointRow);
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }
}

function parseSecret(text: string): WebhookSecret {
  const secret = WebhookSecret.parse(text);
  // The message names the field only: the stored value must never reach a log.
  if (!secret) throw new Error('a stored webhook secret is malformed');
  return secret;
}

function toRegistration(entity: EndpointEntity): WebhookRegistration {
  const types = JSON.parse(entity.eventTypes) as unknown[];
  const registration: WebhookRegistration = {
    partnerId: decodeKeyPart(entity.partitionKey),
    url: entity.url,
    eventTypes: types.filter((t): t is EventType => isEventType(t)),
    secret: parseSecret(entity.secret),
    createdAt: entity.createdAt,
    updatedAt: entity.updatedAt,
    generation: entity.generation ?? entity.createdAt,
    ...(entity.disabledAt ? { disabledAt: entity.disabledAt } : {}),
  };
  if (entity.previousSecret && entity.previousSecretExpiresAt) {
    return { ...registration, previousSecret: { secret: parseSecret(entity.previousSecret), expiresAt: entity.previousSecretExpiresAt } };
  }
  return registration;
}
