import { beforeAll, describe, expect, it } from 'vitest';
import { WebhookSecret } from '../../../src/events/WebhookSecret.js';
import type { HostResolver } from '../../../src/outbound/HostResolver.js';
import { newPartnerId, present, startWebhookKit, type WebhookKit } from './webhookKit.js';
import { apiRefusal } from '../../support/apiRefusal.js';

const resolve: HostResolver = (hostname) => {
  const table: Record<string, string[]> = {
    'hooks.partner.example': ['93.184.216.34'],
    'internal.partner.example': ['10.1.2.3'],
    'sneaky.partner.example': ['93.184.216.34', '127.0.0.1'],
  };
  const found = table[hostname];
  return found ? Promise.resolve(found) : Promise.reject(new Error('ENOTFOUND'));
};
const events = ['reconciliation.completed', 'reconciliation.changed'];

let kit: WebhookKit;
beforeAll(async () => {
  kit = await startWebhookKit({ allowPrivate: false, resolve });
});

describe('registering a partner webhook (public targets only)', () => {
  it('answers the secret once, on the first registration, and never shows it again', async () => {
    const partner = newPartnerId();
    const first = await kit.registrar.register(partner, { url: 'https://hooks.partner.example/pos', eventTypes: events });
    expect(first).toEqual({
      url: 'https://hooks.partner.example/pos',
      event_types: events,
      created_at: kit.clock.now().toISOString(),
      updated_at: kit.clock.now().toISOString(),
      previous_secret_expires_at: null,
      disabled_at: null,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/) as unknown,
    });
    const stored = present(await kit.registrations.get(partner), 'registration');
    const answered = WebhookSecret.parse('secret' in first ? first.secret : '');
    expect(answered && stored.secret.equals(answered)).toBe(true);

    kit.clock.advance(60);
    const again = await kit.registrar.register(partner, { url: 'https://hooks.partner.example/v2', eventTypes: ['batch.failed'] });
    expect('secret' in again).toBe(false);
    expect(again).toMatchObject({ url: 'https://hooks.partner.example/v2', event_types: ['batch.failed'] });
    expect((await kit.registrations.get(partner))?.secret.equals(stored.secret)).toBe(true);
    const shown = await kit.registrar.get(partner);
    expect(shown).toEqual({ ...again });
    expect(JSON.stringify(shown)).not.toContain('whsec_');
  });

  it.each([
    'http://169.254.169.254/',
    'https://169.254.169.254/metadata/instance',
    'https://10.0.0.1/',
    'https://[::ffff:127.0.0.1]/',
    'https://internal.partner.example/hooks',
    'https://sneaky.partner.example/hooks',
    'https://unknown.partner.example/hooks',
    'http://hooks.partner.example/hooks',
    'https://user:pw@hooks.partner.example/',
  ])('refuses %s with a 400 on /url, and stores nothing', async (url) => {
    const partner = newPartnerId();
    const error = await apiRefusal(kit.registrar.register(partner, { url, eventTypes: events }));
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.status).toBe(400);
    expect(error.details).toHaveLength(1);
    expect(error.details[0]?.path).toBe('/url');
    expect(error.details[0]?.message).not.toMatch(/10\.1\.2\.3|127\.0\.0\.1/);
    expect(await kit.registrations.get(partner)).toBeUndefined();
  });

  it('keeps the registered endpoint when a replacement is refused', async () => {
    const partner = newPartnerId();
    await kit.registrar.register(partner, { url: 'https://hooks.partner.example/pos', eventTypes: events });
    await apiRefusal(kit.registrar.register(partner, { url: 'https://10.0.0.1/', eventTypes: events }));
    expect((await kit.registrar.get(partner))?.url).toBe('https://hooks.partner.example/pos');
  });

  it.each([
    [[], '/event_types'],
    [['reconciliation.completed', 'day.closed'], '/event_types/1'],
    [['batch.failed', 'batch.failed'], '/event_types/1'],
  ])('refuses the event types %j (%s)', async (eventTypes, path) => {
    const error = await apiRefusal(kit.registrar.register(newPartnerId(), { url: 'https://hooks.partner.example/', eventTypes }));
    expect(error.code).toBe('INVALID_PAYLOAD');
    expect(error.details.map((d) => d.path)).toEqual([path]);
  });

  it('rotates the secret: a new one answered once, the old one signing for 24 hours more', async () => {
    const partner = newPartnerId();
    const first = await kit.registrar.register(partner, { url: 'https://hooks.partner.example/', eventTypes: events });
    const rotated = await kit.registrar.rotateSecret(partner);
    expect(rotated?.secret).toMatch(/^whsec_/);
    expect(rotated?.secret).not.toBe('secret' in first ? first.secret : undefined);
    expect(rotated?.previous_secret_expires_at).toBe(new Date(kit.clock.ms + 24 * 3600 * 1000).toISOString());
    kit.clock.advance(24 * 3600);
    expect((await kit.registrar.get(partner))?.previous_secret_expires_at).toBeNull();
    expect(await kit.registrar.rotateSecret(newPartnerId())).toBeUndefined();
  });

  it('removes the endpoint', async () => {
    const partner = newPartnerId();
    await kit.registrar.register(partner, { url: 'https://hooks.partner.example/', eventTypes: events });
    expect(await kit.registrar.remove(partner)).toBe(true);
    expect(await kit.registrar.get(partner)).toBeUndefined();
    expect(await kit.registrar.remove(partner)).toBe(false);
  });

  it('a new URL starts healthy; the same URL keeps its pause', async () => {
    const partner = newPartnerId();
    await kit.registrar.register(partner, { url: 'https://hooks.partner.example/a', eventTypes: events });
    await kit.health.recordFailure(partner, 'TIMEOUT', new Date(kit.clock.ms + 3_600_000));
    await kit.registrar.register(partner, { url: 'https://hooks.partner.example/a', eventTypes: ['batch.failed'] });
    expect(await kit.health.get(partner)).toBeDefined();
    await kit.registrar.register(partner, { url: 'https://hooks.partner.example/b', eventTypes: ['batch.failed'] });
    expect(await kit.health.get(partner)).toBeUndefined();
  });

  it('two first registrations at once store one secret, answered to one caller only', async () => {
    const partner = newPartnerId();
    const answers = await Promise.all([
      kit.registrar.register(partner, { url: 'https://hooks.partner.example/1', eventTypes: events }),
      kit.registrar.register(partner, { url: 'https://hooks.partner.example/2', eventTypes: events }),
    ]);
    const secrets = answers.flatMap((a) => ('secret' in a ? [a.secret] : []));
    expect(secrets).toHaveLength(1);
    expect((await kit.registrations.get(partner))?.secret.reveal()).toBe(secrets[0]);
  });
});
