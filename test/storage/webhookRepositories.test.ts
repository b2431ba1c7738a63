import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { WebhookSecret } from '../../src/events/WebhookSecret.js';
import { tableNames } from '../../src/storage/storageNames.js';
import { WebhookEndpointHealthRepository } from '../../src/storage/WebhookEndpointHealthRepository.js';
import { WebhookRegistrationRepository } from '../../src/storage/WebhookRegistrationRepository.js';
import { encodeKeyPart } from '../../src/storage/tableKey.js';
import { azuriteTable } from '../support/azuriteClients.js';

// What every implementation does is in test/services/ports/suites; this is what the storage layout adds.
let webhooks: Awaited<ReturnType<typeof azuriteTable>>;
let registrations: WebhookRegistrationRepository;
let health: WebhookEndpointHealthRepository;

beforeAll(async () => {
  webhooks = await azuriteTable(tableNames.webhooks);
  registrations = new WebhookRegistrationRepository(webhooks);
  health = new WebhookEndpointHealthRepository(webhooks);
});

const now = new Date('2026-03-01T10:00:00Z');
const endpoint = { url: 'https://hooks.partner.example/pos', eventTypes: ['reconciliation.completed'] as const };

describe('the webhooks table, endpoints and their health side by side', () => {
  it('lists endpoints only, not the health rows beside them, and no secret in what it prints', async () => {
    const partner = `p/${randomUUID()}#?`;
    await registrations.create(partner, endpoint, WebhookSecret.generate(), now);
    await health.recordFailure(partner, 'TIMEOUT', now);
    const listed = (await registrations.list()).filter((r) => r.partnerId === partner);
    expect(listed).toHaveLength(1);
    expect(JSON.stringify(listed)).not.toContain((await registrations.get(partner))?.secret.reveal());
  });

  it('keeps an endpoint when its health is reset, and the health when the endpoint is replaced', async () => {
    const partner = `p/${randomUUID()}#?`;
    await registrations.create(partner, endpoint, WebhookSecret.generate(), now);
    await health.recordFailure(partner, 'TIMEOUT', now);
    await registrations.replaceEndpoint(partner, { ...endpoint, url: 'https://other.partner.example/in' }, now);
    expect((await health.get(partner))?.consecutiveFailures).toBe(1);
    await health.reset(partner);
    expect((await registrations.get(partner))?.url).toBe('https://other.partner.example/in');
  });

  it('reads a row written before generations existed as the generation of its creation, until a 410 and a registration again', async () => {
    const partner = `p/${randomUUID()}`;
    await registrations.create(partner, endpoint, WebhookSecret.generate(), now);
    const key = encodeKeyPart(partner);
    const { generation, etag: _etag, timestamp: _timestamp, ...legacy } = await webhooks.getEntity(key, 'endpoint');
    expect(generation).toEqual(expect.any(String));
    await webhooks.updateEntity({ ...legacy, partitionKey: key, rowKey: 'endpoint' }, 'Replace');
    expect((await registrations.get(partner))?.generation).toBe(now.toISOString());
    await registrations.replaceEndpoint(partner, endpoint, now);
    expect((await registrations.get(partner))?.generation).toBe(now.toISOString());
    expect(await registrations.disable(partner, now.toISOString(), now)).toBe(true);
    await registrations.replaceEndpoint(partner, endpoint, now);
    expect((await registrations.get(partner))?.generation).not.toBe(now.toISOString());
  });
});
