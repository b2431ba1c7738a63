import { expect, it } from 'vitest';
import { secretOverlapSeconds, signingSecrets } from '../../../../src/events/WebhookRegistration.js';
import { WebhookSecret } from '../../../../src/events/WebhookSecret.js';
import type { WebhookRegistrations } from '../../../../src/services/ports/WebhookRegistrations.js';
import { freshPartnerId } from './freshIds.js';

const now = new Date('2026-03-01T10:00:00Z');
const endpoint = { url: 'https://hooks.partner.example/pos', eventTypes: ['reconciliation.completed'] as const };

/** What every WebhookRegistrations implementation does. */
export function webhookRegistrationsSuite(make: () => Promise<WebhookRegistrations>): void {
  it('stores one endpoint per partner with its secret, read back as given', async () => {
    const registrations = await make();
    const partner = freshPartnerId();
    const secret = WebhookSecret.generate();
    expect(await registrations.create(partner, endpoint, secret, now)).toBe(true);
    const stored = await registrations.get(partner);
    expect(stored).toMatchObject({ partnerId: partner, url: endpoint.url, eventTypes: ['reconciliation.completed'] });
    expect(stored?.secret.equals(secret)).toBe(true);
    expect(stored?.previousSecret).toBeUndefined();
    expect(await registrations.get(freshPartnerId())).toBeUndefined();
  });

  it('refuses a second first registration, which would replace the secret the partner holds', async () => {
    const registrations = await make();
    const partner = freshPartnerId();
    const first = WebhookSecret.generate();
    await registrations.create(partner, endpoint, first, now);
    expect(await registrations.create(partner, endpoint, WebhookSecret.generate(), now)).toBe(false);
    expect((await registrations.get(partner))?.secret.equals(first)).toBe(true);
  });

  it('replaces URL and event types but keeps the secret', async () => {
    const registrations = await make();
    const partner = freshPartnerId();
    const secret = WebhookSecret.generate();
    await registrations.create(partner, endpoint, secret, now);
    const later = new Date(now.getTime() + 60_000);
    const changed = { url: 'https://other.partner.example/in', eventTypes: ['batch.failed', 'reconciliation.changed'] as const };
    expect(await registrations.replaceEndpoint(partner, changed, later)).toBe(true);
    const stored = await registrations.get(partner);
    expect(stored).toMatchObject({
      ...changed,
      eventTypes: [...changed.eventTypes],
      updatedAt: later.toISOString(),
      createdAt: now.toISOString(),
    });
    expect(stored?.secret.equals(secret)).toBe(true);
    expect(await registrations.replaceEndpoint(freshPartnerId(), changed, later)).toBe(false);
  });

  it('rotates the secret, the old one signing alongside until the overlap ends', async () => {
    const registrations = await make();
    const partner = freshPartnerId();
    const old = WebhookSecret.generate();
    const next = WebhookSecret.generate();
    await registrations.create(partner, endpoint, old, now);
    expect(await registrations.rotateSecret(partner, next, now, secretOverlapSeconds)).toBe(true);
    const stored = await registrations.get(partner);
    if (!stored) throw new Error('registration vanished');
    expect(stored.secret.equals(next)).toBe(true);
    expect(stored.previousSecret?.secret.equals(old)).toBe(true);
    const during = signingSecrets(stored, new Date(now.getTime() + (secretOverlapSeconds - 1) * 1000));
    expect(during.map((s) => s.reveal())).toEqual([next.reveal(), old.reveal()]);
    const after = signingSecrets(stored, new Date(now.getTime() + secretOverlapSeconds * 1000));
    expect(after.map((s) => s.reveal())).toEqual([next.reveal()]);
    expect(await registrations.rotateSecret(freshPartnerId(), next, now, secretOverlapSeconds)).toBe(false);
  });

  it('keeps only the latest two secrets when rotations follow each other, concurrent ones included', async () => {
    const registrations = await make();
    const partner = freshPartnerId();
    await registrations.create(partner, endpoint, WebhookSecret.generate(), now);
    const a = WebhookSecret.generate();
    const b = WebhookSecret.generate();
    await Promise.all([registrations.rotateSecret(partner, a, now, 60), registrations.rotateSecret(partner, b, now, 60)]);
    const stored = await registrations.get(partner);
    if (!stored) throw new Error('registration vanished');
    // Whichever rotation came last is current and the other is the previous one: neither is lost.
    const pair = [stored.secret.reveal(), stored.previousSecret?.secret.reveal()].sort();
    expect(pair).toEqual([a.reveal(), b.reveal()].sort());
  });

  it('disables the registration an attempt was made with after its 410, until it is registered again', async () => {
    const registrations = await make();
    const partner = freshPartnerId();
    const secret = WebhookSecret.generate();
    await registrations.create(partner, endpoint, secret, now);
    const attempted = now.toISOString();
    const gone = new Date(now.getTime() + 60_000);
    expect(await registrations.disable(partner, attempted, gone)).toBe(true);
    expect((await registrations.get(partner))?.disabledAt).toBe(gone.toISOString());
    // Already disabled: the first 410's time stays.
    expect(await registrations.disable(partner, attempted, new Date(gone.getTime() + 1000))).toBe(false);
    expect((await registrations.get(partner))?.disabledAt).toBe(gone.toISOString());
    // A rotation does not enable it; a registration anew does, keeping the rotated secret.
    const rotated = WebhookSecret.generate();
    await registrations.rotateSecret(partner, rotated, gone, 60);
    expect((await registrations.get(partner))?.disabledAt).toBe(gone.toISOString());
    await registrations.replaceEndpoint(partner, endpoint, new Date(gone.getTime() + 2000));
    const enabled = await registrations.get(partner);
    expect(enabled?.disabledAt).toBeUndefined();
    expect(enabled?.secret.equals(rotated)).toBe(true);
    expect((await registrations.list()).find((r) => r.partnerId === partner)?.disabledAt).toBeUndefined();
    expect(await registrations.disable(freshPartnerId(), attempted, gone)).toBe(false);
  });

  it('leaves an endpoint registered anew since the attempt enabled, the same URL included', async () => {
    const registrations = await make();
    const partner = freshPartnerId();
    await registrations.create(partner, endpoint, WebhookSecret.generate(), now);
    const attempted = now.toISOString();
    // The partner fixed its endpoint and registered it again while the 410 was on its way.
    await registrations.replaceEndpoint(partner, endpoint, new Date(now.getTime() + 1000));
    expect(await registrations.disable(partner, attempted, new Date(now.getTime() + 2000))).toBe(false);
    expect((await registrations.get(partner))?.disabledAt).toBeUndefined();
  });

  it('keeps the generation through a replace and a rotation; a registration after a removal or a 410 starts another', async () => {
    const registrations = await make();
    const partner = freshPartnerId();
    await registrations.create(partner, endpoint, WebhookSecret.generate(), now);
    const first = (await registrations.get(partner))?.generation;
    expect(first).toEqual(expect.any(String));
    const later = new Date(now.getTime() + 1000);
    await registrations.replaceEndpoint(partner, { ...endpoint, url: 'https://moved.partner.example/pos' }, later);
    await registrations.rotateSecret(partner, WebhookSecret.generate(), later, 60);
    expect((await registrations.get(partner))?.generation).toBe(first);

    const attempted = (await registrations.get(partner))?.updatedAt ?? '';
    expect(await registrations.disable(partner, attempted, later)).toBe(true);
    await registrations.replaceEndpoint(partner, endpoint, later);
    const enabled = (await registrations.get(partner))?.generation;
    expect([first, undefined]).not.toContain(enabled);

    // Removed and registered again within the same millisecond: still another registration.
    await registrations.remove(partner);
    await registrations.create(partner, endpoint, WebhookSecret.generate(), later);
    expect([first, enabled, undefined]).not.toContain((await registrations.get(partner))?.generation);
  });

  it('removes the endpoint, once', async () => {
    const registrations = await make();
    const partner = freshPartnerId();
    await registrations.create(partner, endpoint, WebhookSecret.generate(), now);
    expect(await registrations.remove(partner)).toBe(true);
    expect(await registrations.get(partner)).toBeUndefined();
    expect(await registrations.remove(partner)).toBe(false);
  });

  it('lists every partner endpoint, ordered by partner id', async () => {
    const registrations = await make();
    const [a, b] = [freshPartnerId(), freshPartnerId()].sort();
    await registrations.create(b!, endpoint, WebhookSecret.generate(), now);
    await registrations.create(a!, { ...endpoint, url: 'https://a.partner.example/in' }, WebhookSecret.generate(), now);
    const listed = (await registrations.list()).filter((r) => r.partnerId === a || r.partnerId === b);
    expect(listed.map((r) => [r.partnerId, r.url])).toEqual([
      [a, 'https://a.partner.example/in'],
      [b, endpoint.url],
    ]);
  });
}
